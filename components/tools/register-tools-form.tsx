"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formErrors } from "../form-errors";
import { useTRPC } from "../trpc-provider";
import { Alert, Button, Field, Input } from "../ui";

/** What a post of these forms without JavaScript came back with (app/api/forms: `form`, `error`, `registered`, `rechecked`). */
type RegisterNotice = { form?: string; error?: string; registered?: string; rechecked?: string };

type Props = {
  project: string;
  /** on a tool's page: its name, for a plain JSON Schema */
  tool?: string;
  /** the range whose stored calls a re-check takes */
  range: { from: string; to: string; label: string };
  /** this page's path and query, where the forms come back to without JavaScript */
  back: string;
  notice: RegisterNotice;
};

const textareaClass =
  "block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-inset focus:ring-indigo-600";

/**
 * Admins paste or upload tool definitions (OpenAI, Anthropic, MCP `tools/list`, or a plain JSON
 * Schema with the tool's name), registered as tools.register registers them; then each tool's
 * calls stored without a schema verdict can be re-checked (tools.recheck). Works without
 * JavaScript through app/api/forms (register-tools, recheck-tool).
 */
export function RegisterToolsForm({ project, tool, range, back, notice }: Props) {
  const trpc = useTRPC();
  const router = useRouter();
  const [definitions, setDefinitions] = useState("");
  const register = useMutation(trpc.tools.registerPasted.mutationOptions({ onSuccess: () => router.refresh() }));
  const registered = register.data
    ? [...new Set(register.data.tools.map((t) => t.name))]
    : notice.form === "register-tools" && notice.registered
      ? notice.registered.split("\n")
      : [];
  const errors = formErrors(register.error, ["definitions", "name"], register.isIdle && notice.form === "register-tools" ? notice.error : null);

  return (
    <div className="space-y-4" id="register-tools">
      <form
        method="post"
        action="/api/forms/register-tools"
        encType="multipart/form-data"
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          register.mutate({ project, definitions, name: String(data.get("name") ?? "") || undefined });
        }}
      >
        {errors.form && <Alert tone="error">{errors.form}</Alert>}
        <input type="hidden" name="project" value={project} />
        <input type="hidden" name="back" value={back} />
        <Field
          label="Tool definitions (JSON)"
          htmlFor="definitions"
          error={errors.field.definitions}
          hint={`As your code sends them to the model: OpenAI {type: "function", function: {name, parameters}} or {name, parameters}, Anthropic {name, input_schema}, MCP {name, inputSchema} or a whole tools/list result; one, or an array.`}
        >
          <textarea
            id="definitions"
            name="definitions"
            rows={8}
            spellCheck={false}
            className={textareaClass}
            value={definitions}
            onChange={(e) => setDefinitions(e.target.value)}
            placeholder='[{"name": "getloan", "input_schema": {"type": "object", "properties": {"loannumber": {"type": "string"}}, "required": ["loannumber"]}}]'
          />
        </Field>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="…or upload a JSON file" htmlFor="definitions-file">
            <input
              id="definitions-file"
              name="file"
              type="file"
              accept=".json,application/json"
              className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-slate-800"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) setDefinitions(await file.text());
              }}
            />
          </Field>
          <Field label="Tool name (for a plain JSON Schema)" htmlFor="definitions-name" error={errors.field.name}>
            <Input id="definitions-name" name="name" defaultValue={tool ?? ""} placeholder="getloan" />
          </Field>
        </div>
        <Button type="submit" disabled={register.isPending}>
          {register.isPending ? "Registering…" : "Register"}
        </Button>
      </form>

      {registered.length > 0 && (
        <Alert tone="success">
          <p>
            Registered {registered.join(", ")}. Calls stored before had no verdict against this schema: re-check them to see which were invalid ({range.label}).
          </p>
          <ul className="mt-2 space-y-2">
            {registered.map((name) => (
              <li key={name}>
                <RecheckButton project={project} tool={name} range={range} back={back} />
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {notice.form === "recheck-tool" && (notice.rechecked || notice.error) && (
        <Alert tone={notice.error ? "error" : "success"}>
          <span data-testid="recheck-result">{notice.error ?? notice.rechecked}</span>
        </Alert>
      )}
    </div>
  );
}

/** Where a re-check button is: the project, the page's range and the page to come back to without JavaScript. */
export type RecheckPlace = { project: string; range: Props["range"]; back: string };

/** One tool's re-check (tools.recheck): a form of its own (without JavaScript), the result in place (with it). */
export function RecheckButton({ project, tool, range, back }: RecheckPlace & { tool: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const recheck = useMutation(trpc.tools.recheck.mutationOptions({ onSuccess: () => router.refresh() }));
  return (
    <form
      method="post"
      action="/api/forms/recheck-tool"
      className="flex flex-wrap items-center gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        recheck.mutate({ project, tool, range: { from: range.from, to: range.to } });
      }}
    >
      {["project", "tool", "from", "to", "back"].map((field) => (
        <input key={field} type="hidden" name={field} value={{ project, tool, from: range.from, to: range.to, back }[field]} />
      ))}
      <Button type="submit" size="sm" variant="secondary" disabled={recheck.isPending}>
        {recheck.isPending ? `Re-checking ${tool}…` : `Re-check the calls of ${tool}`}
      </Button>
      {recheck.data && <span data-testid="recheck-result">{recheck.data.summary}</span>}
      {recheck.error && <span className="text-red-700">{recheck.error.message}</span>}
    </form>
  );
}
