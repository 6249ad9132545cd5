import Link from "next/link";
import { CopyButton } from "./copy-button";
import { Card } from "./ui";

/** The overview of a project without events: how to send the first batch. */
export function EmptyProject({ origin, slug }: { origin: string; slug: string }) {
  const example = [
    `curl -X POST ${origin}/api/trpc/ingest.batch \\`,
    `  -H "Authorization: Bearer <your key>" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"events": [{`,
    `        "id": "call_001", "runId": "run_001", "timestamp": "2026-01-01T12:00:00Z",`,
    `        "model": {"name": "gpt-4o"}, "tool": "get_weather", "arguments": {"city": "Paris"}`,
    `      }]}'`,
  ].join("\n");
  return (
    <Card title="No events yet" description="Send your harness's tool calls to this project and they will show up here.">
      <ol className="list-decimal space-y-4 pl-5 text-slate-700">
        <li>
          Create an API key in{" "}
          <Link href={`/p/${slug}/settings/keys`} className="font-medium text-indigo-700 hover:underline">
            Settings → API keys
          </Link>
          .
        </li>
        <li>
          <div className="flex items-center justify-between gap-2">
            <span>Send one event per tool request the model wrote:</span>
            <CopyButton value={example} selectId="ingest-example" />
          </div>
          <pre id="ingest-example" className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100">
            {example}
          </pre>
          <p className="mt-2 text-slate-500">
            The answer is <code className="font-mono text-xs">{`{"result":{"data":{"accepted":1,"duplicates":0,"rejected":[]}}}`}</code>; sending the same id
            again stores it once.
          </p>
        </li>
      </ol>
    </Card>
  );
}
