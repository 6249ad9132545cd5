import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { FLOORS, type Floor } from "./eslint.config.mjs";

const code = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(", ");

/** One floor as a row of the table in docs/maintaining.md. */
function row(floor: Floor): string[] {
  const imports = [floor.mayImport.length ? code(floor.mayImport) : "nothing else", ...(floor.typeOnly ? [`the types of ${code(floor.typeOnly)}`] : [])];
  return [`\`${floor.name}\``, code(floor.paths), floor.holds, imports.join("; "), floor.noPackages ? code(floor.noPackages) : ""];
}

/** The rows of the floors table (the one whose first header cell is "floor"), cells trimmed. */
function documentedRows(markdown: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => /^\|\s*floor\s*\|/.test(line));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe("the floors of docs/maintaining.md", () => {
  it("are the list the linter enforces (eslint.config.mjs FLOORS), row for row", () => {
    const documented = documentedRows(readFileSync("docs/maintaining.md", "utf8"));
    const expected = FLOORS.map(row);
    // on failure, paste these rows into the table (npx prettier --write docs/maintaining.md aligns it)
    expect(documented.map((cells) => `| ${cells.join(" | ")} |`)).toEqual(expected.map((cells) => `| ${cells.join(" | ")} |`));
  });

  it("only ever point down: each floor imports floors listed before it", () => {
    const names = FLOORS.map((floor) => floor.name);
    for (const [index, floor] of FLOORS.entries()) {
      for (const lower of floor.mayImport) expect(names.indexOf(lower), `${floor.name} → ${lower}`).toBeGreaterThanOrEqual(0);
      for (const lower of floor.mayImport) expect(names.indexOf(lower), `${floor.name} → ${lower}`).toBeLessThan(index);
    }
  });
});

/** Every import between the repository's own .ts/.tsx files, type-only imports included (import-x/no-cycle skips those). */
function importGraph(): Map<string, string[]> {
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile("tsconfig.json", ts.sys.readFile).config, ts.sys, process.cwd());
  const host = ts.createCompilerHost(config.options);
  const own = config.fileNames.filter((file) => !file.includes("/server/db/generated/") && !file.includes("/node_modules/"));
  const graph = new Map<string, string[]>();
  for (const file of own) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, config.options, host).resolvedModule)
      .filter((resolved) => resolved && !resolved.isExternalLibraryImport && /\.tsx?$/.test(resolved.resolvedFileName))
      .map((resolved) => path.resolve(resolved!.resolvedFileName));
    graph.set(path.resolve(file), targets);
  }
  return graph;
}

/** The cycles of a graph (strongly connected components of more than one file, or a file importing itself), by Tarjan. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(process.cwd(), member));
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the import graph", () => {
  it("finds a cycle when there is one (the check below can fail)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("has no cycle between files, type-only imports included", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });
});
