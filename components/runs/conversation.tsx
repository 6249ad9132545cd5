import Link from "next/link";
import { formatCount } from "@/contracts/format-number";
import { callHref, formatClock, linkClass, VerdictBadge } from "@/components/calls/format";
import { Badge, cx } from "@/components/ui";
import { conversationItems, roleLabel, type ConversationData, type ConversationItem, type Fold, type RunCall } from "./conversation-view";

/**
 * The run page's Conversation section: the messages the run's model calls were given and
 * answered (as OTLP delivered them), each assistant turn with the tool calls it wrote (linked to
 * their pages, with their verdicts), long texts folded in `<details>`, which needs no JavaScript.
 */
export function ConversationSection({ slug, data, calls, zone }: { slug: string; data: ConversationData; calls: RunCall[]; zone: string }) {
  const items = conversationItems(data.messages, calls);
  return (
    <section className="mt-4 rounded-lg border border-slate-200 bg-white shadow-sm" aria-labelledby="run-conversation" data-testid="run-conversation">
      <header className="border-b border-slate-100 px-4 py-2.5">
        <h2 id="run-conversation" className="font-semibold text-slate-900">
          Conversation
        </h2>
        <p className="text-slate-500">
          {data.messages.length
            ? "What the model was given and answered, as its instrumentation sent it over OpenTelemetry, with the tool calls each turn wrote."
            : "No messages were delivered for this run."}
        </p>
      </header>
      {data.messages.length === 0 ? (
        <NoMessages slug={slug} />
      ) : (
        <ol className="divide-y divide-slate-100" aria-label="Messages and tool calls of this run in order">
          {items.map((item) => (
            <li key={item.kind === "message" ? item.message.key : `call-${item.call.id}`} className="px-4 py-3" data-testid="conversation-item">
              {item.kind === "message" ? <Message slug={slug} item={item} zone={zone} /> : <LoneCall slug={slug} call={item.call} zone={zone} />}
            </li>
          ))}
        </ol>
      )}
      {data.more && (
        <p className="border-t border-slate-100 px-4 py-2.5 text-xs text-slate-500">Only the first {formatCount(data.messages.length)} messages are shown.</p>
      )}
    </section>
  );
}

function NoMessages({ slug }: { slug: string }) {
  return (
    <div className="space-y-2 px-4 py-3 text-sm text-slate-600" data-testid="conversation-empty">
      <p>
        Toolgate shows a run&apos;s conversation when an OpenTelemetry instrumentation sends the messages with its model-call spans (
        <code className="font-mono text-xs">POST /v1/traces</code>, and <code className="font-mono text-xs">/v1/logs</code> for those that send the content as
        log records). Calls sent with <code className="font-mono text-xs">ingest.batch</code> or the SDKs carry no messages.
      </p>
      <ul className="list-disc space-y-1 pl-5">
        <li>The Vercel AI SDK, OpenLLMetry and OpenInference record the messages by default.</li>
        <li>
          The official OpenTelemetry instrumentations record them only when asked:{" "}
          <code className="font-mono text-xs [overflow-wrap:anywhere]">OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true</code> (JavaScript, with a log
          exporter), or <code className="font-mono text-xs">span_only</code> with{" "}
          <code className="font-mono text-xs [overflow-wrap:anywhere]">OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental</code> (Python openai-v2).
        </li>
      </ul>
      <p>
        <Link href={`/p/${slug}/settings/connect`} className={linkClass}>
          Settings → Connect
        </Link>{" "}
        has the snippets for each.
      </p>
    </div>
  );
}

type MessageItem = Extract<ConversationItem, { kind: "message" }>;

function Message({ slug, item, zone }: { slug: string; item: MessageItem; zone: string }) {
  const { message, fold, calls, answers } = item;
  return (
    <div data-testid="conversation-message" data-role={message.role}>
      <p className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
        <Badge tone={message.role === "assistant" ? "indigo" : message.role === "tool" ? (message.error ? "red" : "green") : "slate"}>
          {roleLabel(message.role)}
        </Badge>
        <span className="tabular-nums text-slate-500">{formatClock(message.at, zone)}</span>
        {answers && (
          <span className="text-slate-600">
            of{" "}
            <Link href={callHref(slug, answers.id)} className={cx(linkClass, "font-mono [overflow-wrap:anywhere]")}>
              {answers.tool}
            </Link>
            {answers.step !== null ? ` (step ${answers.step})` : ""}
          </span>
        )}
        {message.error && <span className="font-medium text-red-700">marked as an error</span>}
      </p>
      {message.text ? (
        <Text fold={fold} text={message.text} mono={message.role === "tool"} />
      ) : (
        !calls.length && <p className="text-xs text-slate-500">(no text)</p>
      )}
      {fold.cutFrom !== undefined && (
        <p className="mt-1 text-xs text-amber-800" data-testid="conversation-cut">
          Cut when stored: the first {formatCount(message.text.length)} of {formatCount(fold.cutFrom)} characters.
        </p>
      )}
      {calls.length > 0 && (
        <ul className="mt-2 space-y-1.5" aria-label="Tool calls of this turn">
          {calls.map((call) => (
            <CallLine key={call.id} slug={slug} call={call} zone={zone} />
          ))}
        </ul>
      )}
      {item.unstored.length > 0 && (
        <p className="mt-1 text-xs text-slate-500">
          Also asked for, not among this run&apos;s stored calls: <span className="font-mono [overflow-wrap:anywhere]">{item.unstored.join(", ")}</span>
        </p>
      )}
    </div>
  );
}

/** A message's text, folded when long; a tool result's in monospace (it is often JSON). */
function Text({ fold, text, mono }: { fold: Fold; text: string; mono: boolean }) {
  const pre = cx("whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]", mono ? "font-mono text-[13px]" : "font-sans text-sm");
  if (!fold.folded) return <pre className={pre}>{text}</pre>;
  return (
    <details className="group" data-testid="conversation-fold">
      <summary className="cursor-pointer list-none rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 [&::-webkit-details-marker]:hidden">
        <pre className={cx(pre, "group-open:hidden")}>{fold.preview}</pre>
        <span className="mt-1 inline-block text-xs font-medium text-indigo-700 group-open:hidden">Show all {formatCount(text.length)} characters</span>
        <span className="hidden text-xs font-medium text-indigo-700 group-open:inline">Fold</span>
      </summary>
      <pre className={cx(pre, "mt-1")}>{text}</pre>
    </details>
  );
}

function CallLine({ slug, call, zone }: { slug: string; call: RunCall; zone: string }) {
  return (
    <li
      className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-slate-200 bg-slate-50 px-2.5 py-1.5 text-sm"
      data-testid="conversation-call"
    >
      <span className="text-xs text-slate-500">calls</span>
      <Link href={callHref(slug, call.id)} className={cx(linkClass, "font-mono text-[13px] [overflow-wrap:anywhere]")} title={`Call ${call.id}`}>
        {call.tool}
      </Link>
      <VerdictBadge valid={call.valid} category={call.category} />
      <span className="text-xs tabular-nums text-slate-500">
        {call.step !== null ? `step ${call.step} · ` : ""}
        {formatClock(call.timestamp, zone)}
      </span>
    </li>
  );
}

function LoneCall({ slug, call, zone }: { slug: string; call: RunCall; zone: string }) {
  return (
    <div>
      <p className="mb-1 text-xs text-slate-500">A tool call whose model call&apos;s messages did not arrive:</p>
      <ul>
        <CallLine slug={slug} call={call} zone={zone} />
      </ul>
    </div>
  );
}
