import Link from "next/link";
import { CodeTabs } from "./code-tabs";
import { CopyButton } from "./copy-button";
import { sdkQuickStarts } from "./sdk-quickstart";
import { Card } from "./ui";

function Example({ id, label, code }: { id: string; label: string; code: string }) {
  return (
    <div className="min-w-0">
      <div className="flex items-center justify-between gap-2">
        <span>{label}</span>
        <CopyButton value={code} selectId={id} />
      </div>
      <pre id={id} tabIndex={0} className="mt-2 overflow-x-auto rounded-md bg-code p-4 font-mono text-xs leading-relaxed text-code-text">
        {code}
      </pre>
    </div>
  );
}

/**
 * The overview of a project without events: the ways to send the first calls, with this
 * server's address. `now` stamps the API example, so that the event it sends lands in the
 * overview's default range instead of months in the past.
 */
export function EmptyProject({ origin, slug, now }: { origin: string; slug: string; now: Date }) {
  const timestamp = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const curl = [
    `curl -X POST ${origin}/api/trpc/ingest.batch \\`,
    `  -H "Authorization: Bearer <your key>" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"events": [{`,
    `        "id": "call_001", "runId": "run_001", "timestamp": "${timestamp}",`,
    `        "model": {"name": "gpt-4o"}, "tool": "get_weather", "arguments": {"city": "Paris"}`,
    `      }]}'`,
  ].join("\n");
  const otlp = [
    `OTEL_EXPORTER_OTLP_ENDPOINT=${origin}`,
    `OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer <your key>"`,
    `OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`,
  ].join("\n");
  const sdk = sdkQuickStarts(origin, "<your key>", false);
  const mcp = `TOOLGATE_URL=${origin} TOOLGATE_API_KEY=<your key> \\\n  npx -y -p @toolgate/sdk toolgate mcp -- <your MCP server's command>`;
  const link = "font-medium text-indigo-700 underline-offset-2 hover:underline";
  return (
    <Card title="No events yet" description="Send your harness's tool calls to this project and they will show up here. Pick one way in.">
      <ol className="list-decimal space-y-5 pl-5 text-slate-700">
        <li>
          Create an API key (scope <code className="font-mono text-xs">ingest</code>) in{" "}
          <Link href={`/p/${slug}/settings/keys`} className={link}>
            Settings → API keys
          </Link>
          .
        </li>
        <li className="space-y-5">
          <Example id="otlp-example" label="OpenTelemetry, no code: set these three variables where your harness runs." code={otlp} />
          <div className="space-y-2">
            <p>Or the SDK, in TypeScript or Python: it validates each call before the tool runs and reports it.</p>
            <CodeTabs
              label="SDK language"
              tabs={[
                { id: "typescript", label: "TypeScript", content: <Example id="sdk-example" label="npm install @toolgate/sdk" code={sdk.typescript} /> },
                { id: "python", label: "Python", content: <Example id="sdk-python-example" label="pip install toolgate-monitor" code={sdk.python} /> },
              ]}
            />
          </div>
          <Example
            id="mcp-example"
            label="Or an MCP server, no code: put the gateway before its command in the client's configuration; it checks each tools/call against the server's schema."
            code={mcp}
          />
          <Example id="ingest-example" label="Or the API, from any language: one event per tool request the model wrote." code={curl} />
          <p className="text-slate-600">
            The API answers <code className="break-all font-mono text-xs">{`{"result":{"data":{"accepted":1,"duplicates":0,"rejected":[]}}}`}</code>; sending
            the same id again stores it once. Snippets per instrumentation and what has arrived so far:{" "}
            <Link href={`/p/${slug}/settings/connect`} className={link}>
              Settings → Connect
            </Link>
            .
          </p>
        </li>
        <li>
          Calls are checked against the tools&apos; JSON Schemas. Until a tool&apos;s schema is known its calls are stored as <em>unchecked</em>:{" "}
          <Link href={`/p/${slug}/tools#register-tools`} className={link}>
            paste the tool definitions
          </Link>{" "}
          (OpenAI, Anthropic or MCP shape), register them with <code className="font-mono text-xs">tools.register</code> or through the SDK, or let
          OpenTelemetry send them with the model spans (the MCP gateway registers the server&apos;s own). Calls stored before a schema arrived can be
          re-checked.
        </li>
      </ol>
    </Card>
  );
}
