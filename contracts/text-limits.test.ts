import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { acceptAsNewAccountInput, apiKeyNameSchema, createProjectInput, setupInput } from "./accounts";
import { actionNoteSchema, incidentTriageInput, silenceInput, snoozeInput, webhookInput } from "./alerts";
import { alertRuleInput } from "./alerts";
import { callsFilterInput, scopeInput, summaryInput } from "./metrics";
import { confusableInput, doctorInput, validateCallInput } from "./tools";
import { EVENT_NAME_LIMITS, TEXT_LIMITS } from "./text-limits";
import { eventSchema } from "./event";

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
    // what PostgreSQL cannot store is refused with where it is, not sent on to fail the statement
    expect(messages(schema, input("a\u0000b"))).toContain(
      `${field} "a\\u0000b" contains a NUL character (\\u0000) at character 2, which PostgreSQL cannot store: remove it, or send binary data as base64`,
    );
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

describe("filters on names: taken up to the longest name an event carries, refused beyond with why and the length sent", () => {
  const rule = { name: "r", metric: "invalid_rate", condition: "threshold", threshold: 0.1, windowMinutes: 60 };
  const cases: [string, z.ZodType, (text: string) => unknown, keyof typeof EVENT_NAME_LIMITS, string][] = [
    ["a dashboard's tool scope", scopeInput, (tool) => ({ tool }), "tool", "tool"],
    ["a dashboard's model version scope", scopeInput, (modelVersion) => ({ modelVersion }), "modelVersion", "modelVersion"],
    ["the summary's run id prefix", summaryInput, (runIdPrefix) => ({ runIdPrefix }), "runId", "runIdPrefix"],
    ["the explorer's model", callsFilterInput, (model) => ({ model }), "model", "model"],
    ["the explorer's run id", callsFilterInput, (runId) => ({ runId }), "runId", "runId"],
    ["a rule's tool scope", alertRuleInput, (tool) => ({ ...rule, scope: { tool } }), "tool", "scope.tool"],
    ["the tool to validate against", validateCallInput, (tool) => ({ tool, arguments: {} }), "tool", "tool"],
    ["the tool version to validate against", validateCallInput, (toolVersion) => ({ tool: "t", arguments: {}, toolVersion }), "toolVersion", "toolVersion"],
    ["the doctor's tool", doctorInput, (tool) => ({ tool }), "tool", "tool"],
    ["the confusable pairs' tool", confusableInput, (tool) => ({ tool }), "tool", "tool"],
  ];
  it.each(cases)("%s", (_, schema, input, name, path) => {
    const max = EVENT_NAME_LIMITS[name];
    expect(messages(schema, input("n".repeat(max)))).toEqual([]);
    expect(messages(schema, input("n".repeat(max + 1)))).toEqual([
      `${path}: ${name} is at most ${max} characters (no event carries a longer one, so nothing could match); you sent ${max + 1}`,
    ]);
  });

  it("uses the event's own limits: an event with the longest names is taken, one character more is refused", () => {
    const event = { id: "e", runId: "r", timestamp: "2026-12-01T00:00:00Z", model: { name: "m" }, tool: "t", arguments: {} };
    for (const [field, value] of [
      ["tool", (t: string) => ({ ...event, tool: t })],
      ["runId", (t: string) => ({ ...event, runId: t })],
      ["model.name", (t: string) => ({ ...event, model: { name: t } })],
    ] as const) {
      const max = { tool: EVENT_NAME_LIMITS.tool, runId: EVENT_NAME_LIMITS.runId, "model.name": EVENT_NAME_LIMITS.model }[field];
      expect(eventSchema.safeParse(value("n".repeat(max))).success, field).toBe(true);
      expect(eventSchema.safeParse(value("n".repeat(max + 1))).success, field).toBe(false);
    }
  });

  it.each(cases)(
    "%s: a NUL or a lone surrogate, which no stored event holds, is refused with where it is (PostgreSQL refused the statement: a 500)",
    (_, schema, input, name, path) => {
      expect(messages(schema, input("get\u0000loan"))).toEqual([
        `${path}: ${name} "get\\u0000loan" contains a NUL character (\\u0000) at character 4, which PostgreSQL cannot store: remove it, or send binary data as base64`,
      ]);
      expect(messages(schema, input("loan\ud83d"))[0]).toMatch(
        new RegExp(`^${path.replace(".", "\\.")}: ${name} "loan\\\\ud83d" contains a lone UTF-16 surrogate \\(\\\\ud83d\\) at character 5`),
      );
    },
  );

  it("the search text says what to do", () => {
    expect(messages(callsFilterInput, { q: "a\u0000b" })).toEqual([
      'q: the search text "a\\u0000b" contains a NUL character (\\u0000) at character 2, which PostgreSQL cannot store: remove it, or send binary data as base64',
    ]);
    expect(messages(callsFilterInput, { q: "q".repeat(201) })).toEqual([
      "q: the search text is at most 200 characters; you sent 201: search for a shorter part of the message or arguments",
    ]);
  });
});
