/** Splits a tRPC error into per-field messages (from zod issues) and a message for the form. */
type Issue = { path: string; message: string };

const sentence = (text: string) => {
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

/**
 * `pageError` is the message a form post without JavaScript came back with (`?error=` of
 * app/api/forms): shown until the form is submitted again.
 */
export function formErrors(error: { message: string; data?: unknown } | null | undefined, fields: readonly string[], pageError?: string | null) {
  const field: Record<string, string> = {};
  if (!error && pageError) return { form: pageError, field };
  if (!error) return { form: null as string | null, field };
  const issues = (error.data as { issues?: Issue[] } | null | undefined)?.issues;
  if (!issues?.length) return { form: error.message, field };
  const rest: string[] = [];
  for (const issue of issues) {
    if (fields.includes(issue.path) && !field[issue.path]) field[issue.path] = sentence(issue.message);
    else if (!fields.includes(issue.path)) rest.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
  return { form: rest.length ? sentence(rest.join("; ")) : null, field };
}

/** The `?error=` a form post without JavaScript came back with (app/api/forms), for the page to hand to its form. */
export const pageError = (raw: string | string[] | undefined) => (typeof raw === "string" && raw ? raw.slice(0, 500) : undefined);
