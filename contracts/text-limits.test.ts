import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { acceptAsNewAccountInput, apiKeyNameSchema, createProjectInput, setupInput } from "./accounts";
import { actionNoteSchema, incidentTriageInput, silenceInput, snoozeInput, webhookInput } from "./alerts";
import { TEXT_LIMITS } from "./text-limits";

const messages = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("text limits: stored whole up to the limit, refused beyond with the field, the limit and the length sent", () => {
  const cases: [string, z.ZodType, (text: string) => unknown, number, string][] = [
    ["project name", createProjectInput, (name) => ({ name, slug: "p" }), TEXT_LIMITS.projectName, "name: the project name"],
    ["API key name", apiKeyNameSchema, (name) => name, TEXT_LIMITS.apiKeyName, ": the key name"],
    [
      "your name at setup",
      setupInput,
      (name) => ({ email: "a@example.com", password: "p".repeat(12), name, projectName: "P", projectSlug: "p" }),
      TEXT_LIMITS.personName,
      "name: your name",
    ],
    [
      "your name on an invitation",
      acceptAsNewAccountInput,
      (name) => ({ token: "t".repeat(43), email: "a@example.com", password: "p".repeat(12), name }),
      TEXT_LIMITS.personName,
      "name: your name",
    ],
    ["webhook name", webhookInput, (name) => ({ name, url: "https://hooks.example.com/x" }), TEXT_LIMITS.webhookName, "name: the endpoint name"],
    ["silence tool", silenceInput, (tool) => ({ tool, minutes: 30, reason: "r" }), TEXT_LIMITS.scopeName, "tool: the tool"],
    ["silence reason", silenceInput, (reason) => ({ tool: "getloan", minutes: 30, reason }), TEXT_LIMITS.silenceReason, "reason: the reason"],
    ["acknowledge/resolve note", actionNoteSchema, (note) => note, TEXT_LIMITS.actionNote, ": the note"],
    ["snooze note", snoozeInput, (note) => ({ minutes: 30, note }), TEXT_LIMITS.actionNote, "note: the note"],
    ["incident note", incidentTriageInput, (note) => ({ note }), TEXT_LIMITS.incidentNote, "note: the note"],
  ];
  it.each(cases)("%s", (_, schema, input, max, field) => {
    const whole = schema.parse(input(`${"n".repeat(max - 1)}é`));
    expect(JSON.stringify(whole)).toContain(`${"n".repeat(max - 1)}é`);
    const n = max + 37;
    expect(messages(schema, input("n".repeat(n)))).toContain(
      `${field} is at most ${max.toLocaleString("en")} characters; you sent ${n.toLocaleString("en")}: shorten it (nothing is cut)`,
    );
    // the ends are trimmed before counting, as they are before storing
    expect(messages(schema, input(`  ${"n".repeat(max)}  `))).toEqual([]);
  });

  it("the slug, the webhook URL and the password say their limit too", () => {
    expect(messages(createProjectInput, { name: "P", slug: "a".repeat(100) })).toContain(
      "slug: a project slug is at most 63 characters; you sent 100: shorten it (nothing is cut)",
    );
    const url = `https://hooks.example.com/${"a".repeat(TEXT_LIMITS.webhookUrl)}`;
    expect(messages(webhookInput, { name: "ops", url })).toEqual([
      `url: the URL is at most 2,000 characters; you sent ${url.length.toLocaleString("en")}: shorten it (nothing is cut)`,
    ]);
    expect(messages(setupInput, { email: "a@example.com", password: "p".repeat(201), projectName: "P", projectSlug: "p" })).toEqual([
      "password: the password is at most 200 characters; you sent 201: shorten it (nothing is cut)",
    ]);
  });
});
