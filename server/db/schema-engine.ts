import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { parseIntoClientConfig } from "pg-connection-string";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";

/**
 * Prisma's schema engine as WebAssembly (the native one downloads at run time, which
 * fails offline). Its JS glue imports the .wasm as an ES module, which Node cannot do,
 * so the module is instantiated by hand.
 */
let glue: Promise<typeof import("@prisma/schema-engine-wasm/schema_engine_bg")> | undefined;

function loadGlue() {
  glue ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg").replace(/\.js$/, ".wasm");
    // the glue reports Rust panics through this global; keep the message for the error
    (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
      set_message: (message: string) => console.error(`schema engine panic: ${message}`),
    };
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return glue;
}

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type PgResult = { fields: { dataTypeID: number }[]; rows: unknown[] };
type RawResult = { columnTypes: number[]; rows: unknown[] };

const CHAR_OID = 18;
const TEXT_OID = 25;

/**
 * PostgreSQL 18's catalogs answer the engine's describe queries with columns of the
 * internal one-byte type "char", which the pg adapter refuses; the engine expects them
 * as its Character column type. Read them as text, then label them Character.
 */
function charColumnsAsCharacter(config: pg.ClientConfig) {
  const factory = new PrismaPg(config);
  const patch = (adapter: PgAdapter) => {
    const charColumns = new WeakMap<unknown[], number[]>();
    const io = adapter as unknown as {
      performIO: (q: unknown) => Promise<PgResult>;
      queryRaw: (q: unknown) => Promise<RawResult>;
    };
    const performIO = io.performIO.bind(adapter);
    const queryRaw = io.queryRaw.bind(adapter);
    io.performIO = async (query) => {
      const result = await performIO(query);
      const found = result.fields.flatMap((f, i) => (f.dataTypeID === CHAR_OID ? [i] : []));
      for (const i of found) result.fields[i]!.dataTypeID = TEXT_OID;
      if (found.length) charColumns.set(result.rows, found);
      return result;
    };
    io.queryRaw = async (query) => {
      const result = await queryRaw(query);
      for (const i of charColumns.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
      return result;
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    connectToShadowDb: async () => patch(await connectToShadowDb(config)),
  } satisfies SqlMigrationAwareDriverAdapterFactory;
}

/**
 * A throw-away database for replaying migrations. The adapter's own version drops the
 * database while its pool still holds a connection to it, which fails.
 */
async function connectToShadowDb(config: pg.ClientConfig) {
  const name = `prisma_migrate_shadow_db_${randomUUID()}`;
  const run = async (sql: string) => {
    const client = new pg.Client(config);
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await run(`CREATE DATABASE "${name}"`);
  const adapter = await new PrismaPg({ ...config, database: name }).connect();
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  return adapter;
}

// The connection string is split into fields because the adapter's shadow database
// replaces `database` in its config, which a `connectionString` would override.
export async function withSchemaEngine<T>(
  connectionString: string,
  datamodel: { path: string; content: string } | undefined,
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const bg = await loadGlue();
  const adapter = bindMigrationAwareSqlAdapterFactory(charColumnsAsCharacter(parseIntoClientConfig(connectionString) as pg.ClientConfig));
  const engine = await bg.SchemaEngine.new({ datamodels: datamodel ? [[datamodel.path, datamodel.content]] : undefined }, () => {}, adapter);
  try {
    return await use(engine as unknown as SchemaEngine);
  } finally {
    engine.free();
  }
}
