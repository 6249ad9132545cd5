"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CopyButton } from "../copy-button";
import { formErrors } from "../form-errors";
import { useTRPC } from "../trpc-provider";
import { Alert, Badge, Button, Card, Field } from "../ui";
import { ConfirmButton } from "../confirm-button";
import { SIGNATURE_HEADER } from "../../contracts/alerts";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { CountedInput } from "../counted-input";
import { TEXT_LIMITS } from "../../contracts/text-limits";

type TestResult = { delivered: boolean; statusCode: number | null; error: string | null };

const NODE_EXAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

// header: the X-Toolgate-Signature value; body: the raw request body, before JSON parsing
export function verifyToolgate(secret, header, body) {
  const { t, v1 } = Object.fromEntries(header.split(",").map((part) => part.split("=")));
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false; // stale or replayed
  const expected = createHmac("sha256", secret).update(\`\${t}.\${body}\`).digest("hex");
  return v1.length === expected.length && timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}`;

const PYTHON_EXAMPLE = `import hashlib, hmac, time

def verify_toolgate(secret: str, header: str, body: bytes) -> bool:
    parts = dict(p.split("=", 1) for p in header.split(","))
    t, v1 = parts.get("t"), parts.get("v1")
    if not t or not v1 or abs(time.time() - int(t)) > 300:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(v1, expected)`;

/** Admins: the project's webhook endpoints, their signing secrets, a test button, and how to verify. */
export function WebhooksPanel({ slug, zone }: { slug: string; zone: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions({ project: slug }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey({ project: slug }) });
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [revealed, setRevealed] = useState<Set<string>>(new Set());
  const [tests, setTests] = useState<Record<string, TestResult | { failed: string }>>({});

  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (created) => {
        setName("");
        setUrl("");
        setRevealed((s) => new Set(s).add(created.id));
        return invalidate();
      },
    }),
  );
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSettled: invalidate }));
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: (result, input) => setTests((t) => ({ ...t, [input.id]: result })),
      onError: (error, input) => setTests((t) => ({ ...t, [input.id]: { failed: error.message } })),
    }),
  );
  const errors = formErrors(create.error, ["name", "url"]);

  return (
    <div className="space-y-6">
      <Card
        title="Add a webhook endpoint"
        description="New incidents are POSTed as JSON to every enabled endpoint (or to those a rule chooses), signed with the endpoint's secret."
      >
        <form
          className="grid gap-4 sm:grid-cols-[1fr_2fr_auto] sm:items-start"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ project: slug, name, url });
          }}
        >
          {errors.form && (
            <Alert tone="error" className="sm:col-span-3">
              {errors.form}
            </Alert>
          )}
          <Field label="Name" htmlFor="webhook-name" error={errors.field.name} hint="e.g. “#ops-alerts on Slack”.">
            <CountedInput
              max={TEXT_LIMITS.webhookName}
              id="webhook-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              invalid={!!errors.field.name}
              autoComplete="off"
            />
          </Field>
          <Field
            label="URL"
            htmlFor="webhook-url"
            error={errors.field.url}
            hint="A public http(s) URL that accepts POST requests. Internal addresses (localhost, private networks, cloud metadata) are refused unless the server sets TOOLGATE_WEBHOOK_ALLOW_PRIVATE=true."
          >
            <CountedInput
              max={TEXT_LIMITS.webhookUrl}
              id="webhook-url"
              type="url"
              value={url}
              placeholder="https://hooks.slack.com/services/…"
              onChange={(e) => setUrl(e.target.value)}
              invalid={!!errors.field.url}
              autoComplete="off"
            />
          </Field>
          <div className="sm:pt-[1.625rem]">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Adding…" : "Add endpoint"}
            </Button>
          </div>
        </form>
      </Card>

      <Card title="Endpoints" description="Only admins see the secrets. Send a test to check that an endpoint answers 2xx.">
        {remove.error && (
          <Alert tone="error" className="mb-4">
            {remove.error.message}
          </Alert>
        )}
        {list.isPending ? (
          <p className="text-slate-500">Loading endpoints…</p>
        ) : list.error ? (
          <Alert tone="error">{list.error.message}</Alert>
        ) : list.data.length === 0 ? (
          <p className="text-slate-500" data-testid="no-webhooks">
            No endpoints yet: incidents are only shown in Toolgate.
          </p>
        ) : (
          <ul className="-my-4 divide-y divide-slate-100" aria-label="Webhook endpoints">
            {list.data.map((w) => {
              const test = tests[w.id];
              const shown = revealed.has(w.id);
              const secretId = `secret-${w.id}`;
              return (
                <li key={w.id} data-testid="webhook-row" className="space-y-3 py-4">
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0">
                      <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900 [overflow-wrap:anywhere]">
                        {w.name}
                        {!w.enabled && <Badge>disabled</Badge>}
                      </p>
                      <p className="break-all font-mono text-xs text-slate-600">{w.url}</p>
                      <p className="mt-0.5 text-xs text-slate-500">Added {formatDateTimeZoned(w.createdAt, zone)}</p>
                    </div>
                    <div className="flex shrink-0 items-center gap-2">
                      <ConfirmButton
                        label={`Delete ${w.name}`}
                        question="Delete this endpoint?"
                        pending={remove.isPending}
                        onConfirm={(close) => remove.mutate({ project: slug, id: w.id }, { onSuccess: close })}
                        beside={
                          <Button
                            variant="secondary"
                            size="sm"
                            aria-label={`Send test to ${w.name}`}
                            disabled={sendTest.isPending && sendTest.variables?.id === w.id}
                            onClick={() => sendTest.mutate({ project: slug, id: w.id })}
                          >
                            {sendTest.isPending && sendTest.variables?.id === w.id ? "Sending…" : "Send test"}
                          </Button>
                        }
                      >
                        Delete
                      </ConfirmButton>
                    </div>
                  </div>
                  {test && (
                    <p data-testid="test-result" role="status" className={"failed" in test || !test.delivered ? "text-red-700" : "text-emerald-700"}>
                      {"failed" in test
                        ? `Could not send: ${test.failed}`
                        : test.statusCode !== null
                          ? `Test ${test.delivered ? "delivered" : "not accepted"}: the endpoint answered HTTP ${test.statusCode}.`
                          : `Test not delivered: ${test.error ?? "no answer"}.`}
                    </p>
                  )}
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="text-xs font-medium uppercase tracking-wide text-slate-500">Signing secret</span>
                    <code
                      id={secretId}
                      data-testid="webhook-secret"
                      className="break-all rounded bg-slate-50 px-2 py-1 font-mono text-xs text-slate-800 ring-1 ring-slate-200"
                    >
                      {shown ? w.secret : `${w.secret.slice(0, 6)}${"•".repeat(24)}`}
                    </code>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() =>
                        setRevealed((s) => {
                          const next = new Set(s);
                          if (shown) next.delete(w.id);
                          else next.add(w.id);
                          return next;
                        })
                      }
                    >
                      {shown ? "Hide" : "Reveal"}
                    </Button>
                    {shown && <CopyButton value={w.secret} selectId={secretId} />}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Card>

      <Card title="Verifying a delivery" description="Check the signature before trusting a payload: anyone can POST to a public URL.">
        <div className="space-y-3 text-slate-700">
          <p>
            Every request carries the header{" "}
            <code className="rounded bg-slate-100 px-1 font-mono text-xs">{SIGNATURE_HEADER}: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>, where{" "}
            <code className="font-mono text-xs">v1</code> is the hex HMAC-SHA256 of{" "}
            <code className="rounded bg-slate-100 px-1 font-mono text-xs">&lt;t&gt;.&lt;raw body&gt;</code> keyed with the endpoint&apos;s secret. To verify:
          </p>
          <ol className="list-decimal space-y-1 pl-5">
            <li>
              Split the header at commas into <code className="font-mono text-xs">t</code> and <code className="font-mono text-xs">v1</code>.
            </li>
            <li>Compute HMAC-SHA256(secret, t + &quot;.&quot; + raw body) as hex, using the body exactly as received.</li>
            <li>Compare it with v1 in constant time, and reject timestamps more than 5 minutes from now (replays).</li>
          </ol>
          <p className="text-xs text-slate-500">
            Other headers: <code className="font-mono">X-Toolgate-Event</code> (<code className="font-mono">incident.fired</code> or{" "}
            <code className="font-mono">test</code>). The payload has a <code className="font-mono">text</code> field, so Slack-style incoming webhooks show it
            as a message. Failed deliveries are retried up to 5 times with exponential backoff; each attempt appears in the incident&apos;s delivery log.
          </p>
          <div>
            <div className="mb-1 flex items-center justify-between">
              <span className="text-xs font-medium uppercase tracking-wide text-slate-500">Node.js</span>
              <CopyButton value={NODE_EXAMPLE} selectId="verify-node" />
            </div>
            <pre id="verify-node" tabIndex={0} className="overflow-x-auto rounded-md bg-code p-4 font-mono text-xs leading-relaxed text-code-text">
              {NODE_EXAMPLE}
            </pre>
          </div>
          <div>
            <div className="mb-1 flex items-center justify-between">
              <span className="text-xs font-medium uppercase tracking-wide text-slate-500">Python</span>
              <CopyButton value={PYTHON_EXAMPLE} selectId="verify-python" />
            </div>
            <pre id="verify-python" tabIndex={0} className="overflow-x-auto rounded-md bg-code p-4 font-mono text-xs leading-relaxed text-code-text">
              {PYTHON_EXAMPLE}
            </pre>
          </div>
        </div>
      </Card>
    </div>
  );
}
