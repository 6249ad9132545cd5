import { expect, it } from "vitest";
import { prisma } from "../../server/db/client";
import { makeProject } from "../../test/fixtures";
import { httpAppForTests } from "../../test/http-app";
import { runLoanAssistant } from "../../examples/loan-assistant/assistant";

const server = httpAppForTests();

it("the loan-assistant example: every call's event arrives once, refusals and their corrections paired", async () => {
  const p = await makeProject();
  const { outcomes, stats, errors } = await runLoanAssistant({ url: server.app.url, apiKey: (await p.key()).key });
  expect(errors).toEqual([]);
  expect(stats).toMatchObject({ sent: outcomes.length, dropped: 0, rejected: 0 });

  const rows = await prisma().toolCall.findMany({
    where: { projectId: p.project.id },
    select: { id: true, tool: true, valid: true, category: true, correctionId: true, verdictsDiffer: true },
  });
  expect(rows.map((r) => r.id).sort()).toEqual(outcomes.map((o) => o.event.id).sort());
  const invalid = rows.filter((r) => r.valid === false);
  expect(invalid.map((r) => r.category).sort()).toEqual(["invalid_choice", "missing_argument", "unknown_tool", "wrong_type"]);
  expect(rows.some((r) => r.verdictsDiffer)).toBe(false);
  // every refusal is paired with the model's correction: the same tool, or the right name for an unknown one
  for (const r of invalid) {
    const correction = rows.find((c) => c.id === r.correctionId);
    expect(correction, `${r.tool} ${r.category}`).toMatchObject({ tool: r.tool === "get_payments" ? "getpayments" : r.tool, valid: true });
  }
  expect(await prisma().toolDefinition.count({ where: { projectId: p.project.id } })).toBe(3);
});
