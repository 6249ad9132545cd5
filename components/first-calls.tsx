import Link from "next/link";
import { NOT_CHECKED_COUNTED } from "../contracts/tools";
import { formatCount } from "../contracts/format-number";
import { formatDateTimeZoned } from "../isomorphic/time-zone";
import type { Unregistered } from "./tools/unregistered-tools";
import { Card, Truncated } from "./ui";

type Newest = { id: string; tool: string; timestamp: Date | string; valid: boolean | null };

/**
 * The overview of a project whose calls have arrived but no tool schema yet: where the newest
 * call landed (its page, and whether it is in the range shown), and why its calls are unchecked
 * with the way to register the schemas (the tools page's form).
 */
export function FirstCalls({
  slug,
  newest,
  range,
  unregistered,
  canRegister,
  zone,
}: {
  slug: string;
  newest: Newest;
  range: { from: string; to: string; label: string };
  unregistered: Unregistered;
  canRegister: boolean;
  /** the viewer's time zone (pageTimeZone) */
  zone: string;
}) {
  const at = new Date(newest.timestamp).getTime();
  const inRange = at >= Date.parse(range.from) && at < Date.parse(range.to);
  const link = "font-medium text-indigo-700 underline-offset-2 hover:underline";
  const unchecked = unregistered.tools.reduce((n, t) => n + t.notChecked, 0);
  const tools = unregistered.tools.map((t) => t.tool);
  return (
    <Card title="Your calls have arrived" description="What Toolgate has stored so far, and what it needs to check them">
      <div className="space-y-3 text-slate-700" data-testid="first-calls">
        <p>
          The newest call,{" "}
          <Link href={`/p/${slug}/calls/${encodeURIComponent(newest.id)}`} className={`${link} font-mono text-[13px]`}>
            <Truncated text={newest.tool} />
          </Link>
          , landed at {formatDateTimeZoned(newest.timestamp, zone)}
          {inRange ? `, in the range shown (${range.label}).` : `: outside the range shown (${range.label}). Choose a range that holds it, or open it.`}
        </p>
        {unchecked > 0 && (
          <p>
            {formatCount(unchecked)}
            {unregistered.tools.some((t) => t.notChecked >= NOT_CHECKED_COUNTED) ? " or more" : ""} of its calls are <strong>unchecked</strong>: this project
            has no JSON Schema for{" "}
            {tools.slice(0, 3).map((tool, i) => (
              <span key={tool}>
                {i > 0 && ", "}
                <Truncated text={tool} className="font-mono text-[13px]" />
              </span>
            ))}
            {tools.length > 3 ? ` and ${tools.length - 3} more tools` : ""}, so Toolgate cannot tell a valid call from an invalid one.{" "}
            {canRegister ? (
              <Link href={`/p/${slug}/tools#register-tools`} className={link}>
                Paste the tool definitions
              </Link>
            ) : (
              "An admin can paste the tool definitions on the Tools page"
            )}{" "}
            (or register them with <code className="font-mono text-xs">tools.register</code>, the SDK or the MCP gateway), then re-check the stored calls.
          </p>
        )}
      </div>
    </Card>
  );
}
