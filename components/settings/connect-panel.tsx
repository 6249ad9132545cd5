import Link from "next/link";
import { CodeTabs } from "../code-tabs";
import { CopyButton } from "../copy-button";
import { sdkQuickStarts } from "../sdk-quickstart";
import { formatCount } from "../../contracts/format-number";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { Badge, Card } from "../ui";
import { UnregisteredTools, type Unregistered } from "../tools/unregistered-tools";
import { mcpConfigs } from "./mcp-config";

type Stats = {
  lastSpanAt: Date | string | null;
  spans: number;
  ignored: number;
  rejected: number;
  lastReason: string | null;
  lastReasonAt: Date | string | null;
  executions: number;
  executionsJoined: number;
} | null;

/** The newest trace exports (otlp.exports): what each gave, and why its other spans gave nothing. */
type Exports = {
  receivedAt: Date | string;
  spans: number;
  accepted: number;
  rejected: number;
  ignored: { reason: string; count: number; sentence: string }[];
}[];

const KEY = "tg_…";

/** Shown per export: at most this many of the newest. */
const EXPORTS_SHOWN = 5;

function RecentExports({ exports, zone }: { exports: Exports; zone: string }) {
  return (
    <ol className="space-y-3" data-testid="otlp-exports">
      {exports.slice(0, EXPORTS_SHOWN).map((e, i) => (
        <li key={i} className="rounded-md px-3 py-2 ring-1 ring-inset ring-slate-200" data-testid="otlp-export">
          <p className="text-slate-800">
            <span className="text-slate-500">{formatDateTimeZoned(e.receivedAt, zone)}</span> · {formatCount(e.spans)} spans · {formatCount(e.accepted)} calls
            stored · {formatCount(e.rejected)} rejected
          </p>
          {e.ignored.length > 0 && (
            <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-600">
              {e.ignored.map((g) => (
                <li key={g.reason} data-reason={g.reason}>
                  {g.sentence}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

function Snippet({ id, title, code }: { id: string; title: string; code: string }) {
  return (
    <div className="min-w-0 space-y-2">
      <div className="flex items-center justify-between gap-4">
        <h3 className="font-medium text-slate-800">{title}</h3>
        <CopyButton value={code} selectId={id} />
      </div>
      <pre
        id={id}
        tabIndex={0}
        className="overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800 ring-1 ring-inset ring-slate-200"
      >
        {code}
      </pre>
    </div>
  );
}

/** Settings → Connect: how to point an OpenTelemetry-instrumented harness at this project, and what has arrived. */
export function ConnectPanel({
  slug,
  origin,
  stats,
  canCreateKeys,
  unregistered,
  exports,
  zone,
}: {
  slug: string;
  origin: string;
  stats: Stats;
  canCreateKeys: boolean;
  unregistered: Unregistered;
  exports: Exports;
  /** the viewer's time zone (pageTimeZone) */
  zone: string;
}) {
  const env = `OTEL_EXPORTER_OTLP_ENDPOINT=${origin}\nOTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer ${KEY}"\nOTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`;
  const node = `// npm install @opentelemetry/sdk-trace-node @opentelemetry/exporter-trace-otlp-proto
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";

// the exporter reads OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS
const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
provider.register();`;
  const vercel = `// ai 7: npm install @ai-sdk/otel; with the Node SDK set up as above (or @vercel/otel in a Next.js instrumentation.ts)
import { OpenTelemetry } from "@ai-sdk/otel";
import { generateText, registerTelemetry, stepCountIs } from "ai";

// one run per conversation: the conversation id on every span (without one, each trace is a run)
registerTelemetry(new OpenTelemetry({
  enrichSpan: ({ runtimeContext }) => ({ "gen_ai.conversation.id": runtimeContext?.sessionId }),
}));

const result = await generateText({
  model,
  tools,
  prompt,
  stopWhen: stepCountIs(5),
  runtimeContext: { sessionId: conversationId },
  telemetry: { includeRuntimeContext: { sessionId: true } },
});

// ai 6: no registration; in the call
//   experimental_telemetry: { isEnabled: true, metadata: { sessionId: conversationId } }`;
  const openllmetry = `# pip install traceloop-sdk
from traceloop.sdk import Traceloop

Traceloop.init(app_name="my-agent", api_endpoint="${origin}",
               headers={"Authorization": "Bearer ${KEY}"})`;
  const openinference = `# pip install openinference-instrumentation-openai opentelemetry-sdk opentelemetry-exporter-otlp-proto-http
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from openinference.instrumentation.openai import OpenAIInstrumentor

provider = TracerProvider()  # the exporter reads the environment variables above
provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
OpenAIInstrumentor().instrument(tracer_provider=provider)`;

  const mcp = mcpConfigs(origin, KEY);
  const sdk = sdkQuickStarts(origin, KEY, true);

  return (
    <div className="space-y-6">
      <Card
        title="Spans received"
        description="OpenTelemetry traces sent to this project's OTLP endpoint"
        actions={stats?.lastSpanAt ? <Badge tone="green">receiving</Badge> : <Badge tone="slate">nothing yet</Badge>}
      >
        {stats?.lastSpanAt ? (
          <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="otlp-stats">
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Last span</dt>
              <dd className="mt-1 text-slate-800">{formatDateTimeZoned(stats.lastSpanAt, zone)}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Spans</dt>
              <dd className="mt-1 text-slate-800">{formatCount(stats.spans)}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Ignored (not generative AI)</dt>
              <dd className="mt-1 text-slate-800">{formatCount(stats.ignored)}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Rejected</dt>
              <dd className="mt-1 text-slate-800">{formatCount(stats.rejected)}</dd>
            </div>
            {stats.executions > 0 && (
              <div className="col-span-2">
                <dt className="text-xs uppercase tracking-wide text-slate-500">Tool executions (servers, tool runtimes)</dt>
                <dd className="mt-1 text-slate-800" data-testid="otlp-executions">
                  {formatCount(stats.executions)} · {formatCount(stats.executionsJoined)} joined with the model&apos;s call
                </dd>
              </div>
            )}
            {stats.lastReason && (
              <div className="col-span-full">
                <dt className="text-xs uppercase tracking-wide text-slate-500">
                  Last problem{stats.lastReasonAt ? ` · ${formatDateTimeZoned(stats.lastReasonAt, zone)}` : ""}
                </dt>
                <dd className="mt-1 break-words font-mono text-xs text-slate-700">{stats.lastReason}</dd>
              </div>
            )}
          </dl>
        ) : null}
        {stats?.lastSpanAt && exports.length > 0 && (
          <div className="mt-5 space-y-2">
            <h3 className="font-medium text-slate-800">Latest exports</h3>
            <RecentExports exports={exports} zone={zone} />
          </div>
        )}
        {stats?.lastSpanAt ? null : (
          <p className="text-slate-600">No span has arrived yet. Set the environment variables below in your harness and run it once.</p>
        )}
      </Card>

      {unregistered.tools.length > 0 && (
        <Card
          title="Tools without a schema"
          description="Toolgate checks a call against its tool's JSON Schema; many instrumentations do not send the definitions"
        >
          <UnregisteredTools
            unregistered={unregistered}
            toolHref={(tool) => `/p/${slug}/tools/${encodeURIComponent(tool)}`}
            registerHref={canCreateKeys ? `/p/${slug}/tools#register-tools` : null}
          />
        </Card>
      )}

      <Card
        title="Point your harness at Toolgate"
        description="Harnesses instrumented with OpenTelemetry need no code change: the endpoint and a key in environment variables send their traces here."
      >
        <div className="space-y-5">
          <p className="text-slate-600">
            Replace <code className="break-all font-mono">{KEY}</code> with an ingest-scope key of this project (
            {canCreateKeys ? (
              <Link className="text-blue-700 underline underline-offset-2" href={`/p/${slug}/settings/keys`}>
                Settings → API keys
              </Link>
            ) : (
              "an admin can create one in Settings → API keys"
            )}
            ). Toolgate reads the tool calls the model wrote from the model-call spans, registers the tool definitions it finds there and classifies every call,
            including those the harness refused; spans that are not about generative AI are counted and ignored.
          </p>
          <Snippet id="snippet-env" title="Environment" code={env} />
          <Snippet id="snippet-node" title="OpenTelemetry Node SDK" code={node} />
          <Snippet id="snippet-vercel" title="Vercel AI SDK" code={vercel} />
          <Snippet id="snippet-openllmetry" title="OpenLLMetry (Traceloop)" code={openllmetry} />
          <Snippet id="snippet-openinference" title="OpenInference (Arize Phoenix instrumentations)" code={openinference} />
          <p className="text-slate-600">
            Instrumentations must record message content for Toolgate to see the calls (most do by default). The OpenTelemetry GenAI instrumentations need
            content capture: Python&apos;s openai-v2 <code className="break-all font-mono">OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only</code>;
            the JavaScript <code className="break-all font-mono">@opentelemetry/instrumentation-openai</code>{" "}
            <code className="break-all font-mono">…=true</code>, and it sends the content as log records, so export logs to{" "}
            <code className="break-all font-mono">/v1/logs</code> too. Details: docs/otlp.md.
          </p>
        </div>
      </Card>

      <Card
        title="Toolgate SDK"
        description="In your own code: the SDK checks each tool call against the tool's JSON Schema before it runs, answers an invalid one with a message the model can act on, and reports every call here."
      >
        <div className="space-y-5">
          <p className="text-slate-600">
            The same dispatcher in TypeScript (<code className="break-all font-mono">@toolgate/sdk</code>) and Python (
            <code className="break-all font-mono">pip install toolgate-monitor</code>, imported as <code className="break-all font-mono">toolgate</code>); it
            takes the model&apos;s tool calls in the OpenAI or Anthropic shape and answers in the same shape. Use the same ingest-scope key. Details:
            sdk/README.md and sdk-python/README.md.
          </p>
          <CodeTabs
            label="SDK language"
            tabs={[
              {
                id: "typescript",
                label: "TypeScript",
                content: <Snippet id="snippet-sdk-typescript" title="npm install @toolgate/sdk" code={sdk.typescript} />,
              },
              { id: "python", label: "Python", content: <Snippet id="snippet-sdk-python" title="pip install toolgate-monitor" code={sdk.python} /> },
            ]}
          />
        </div>
      </Card>

      <Card
        title="MCP servers"
        description="Put Toolgate's gate in front of any MCP server: the client starts toolgate mcp, which starts the server, checks every tools/call against the server's own schema and records it."
      >
        <div className="space-y-5">
          <p className="text-slate-600">
            Put <code className="break-all font-mono">npx -y -p @toolgate/sdk toolgate mcp --</code> before the server's command in the client&apos;s
            configuration and add the two variables (the same ingest-scope key). An invalid call is answered with the classifier&apos;s message and never
            reaches the server; the server never sees the key. Details: docs/mcp.md.
          </p>
          <Snippet id="snippet-mcp-claude" title="Claude Desktop (claude_desktop_config.json)" code={mcp.claude} />
          <Snippet id="snippet-mcp-cursor" title="Cursor (~/.cursor/mcp.json or .cursor/mcp.json)" code={mcp.cursor} />
          <Snippet id="snippet-mcp-vscode" title="VS Code (.vscode/mcp.json)" code={mcp.vscode} />
          <Snippet id="snippet-mcp-stdio" title="Any stdio client" code={mcp.stdio} />
          <p className="text-slate-600">
            <strong className="font-medium text-slate-800">Remote servers (Streamable HTTP).</strong> A server reached by URL rather than started as a command
            gets the gateway as a process of its own: run it with the server&apos;s endpoint as <code className="break-all font-mono">--upstream</code>, and
            point the client at the gateway&apos;s address instead of the server&apos;s. Requests, SSE streams, sessions and{" "}
            <code className="break-all font-mono">Authorization</code> go through unchanged; the gateway listens on this machine only.
          </p>
          <Snippet id="snippet-mcp-remote" title="Run the gateway in front of the remote server" code={mcp.remoteGateway} />
          <Snippet
            id="snippet-mcp-remote-client"
            title='The client, pointed at the gateway (Cursor; VS Code: under "servers", with "type": "http")'
            code={mcp.remoteClient}
          />
        </div>
      </Card>
    </div>
  );
}
