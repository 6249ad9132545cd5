import Link from "next/link";
import { formatCount } from "../../contracts/format-number";

/**
 * What a page says when none of its calls could be checked (no schema registered, no harness
 * verdict): they are neither valid nor invalid, so it shows no invalid rate, and how to fix it.
 */
export function UncheckedNotice({
  slug,
  calls,
  tool,
  of,
  canRegister,
}: {
  slug: string;
  calls: number;
  tool?: string;
  /** whose calls, when the notice is about a part of the page (a model version on the models page) */
  of?: string;
  canRegister: boolean;
}) {
  const link = "font-medium text-indigo-700 underline-offset-2 hover:underline";
  const subject = of
    ? calls === 1
      ? `The call of ${of} is`
      : `All ${formatCount(calls)} calls of ${of} are`
    : calls === 1
      ? "This call is"
      : `All ${formatCount(calls)} calls here are`;
  return (
    <section data-testid="unchecked-notice" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900">
      <h2 className="font-semibold [overflow-wrap:anywhere]">{subject} unchecked</h2>
      <p className="mt-1">
        Toolgate has no JSON Schema for {tool ? <span className="font-mono text-[13px] break-all">{tool}</span> : "these tools"} (and the harness sent no
        verdict), so it cannot tell a valid call from an invalid one: they are counted as <strong>unchecked</strong>, neither valid nor invalid, and there is no
        invalid rate yet.{" "}
        {canRegister ? (
          <>
            <Link href={`/p/${slug}/tools#register-tools`} className={link}>
              Register or paste the schema
            </Link>
            , then{" "}
            <Link href={`/p/${slug}/tools#tools-without-schema`} className={link}>
              Re-check
            </Link>{" "}
            the stored calls.
          </>
        ) : (
          <>
            An admin can register or paste the schema on the{" "}
            <Link href={`/p/${slug}/tools`} className={link}>
              Tools page
            </Link>
            , then re-check the stored calls.
          </>
        )}
      </p>
    </section>
  );
}
