/** A message the model was told, quoted as it was sent (or a note that none was reported). */
export function Message({ text, caption, testId }: { text: string | null; caption: string; testId?: string }) {
  return (
    <figure>
      <figcaption className="mb-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">{caption}</figcaption>
      {text ? (
        <blockquote
          data-testid={testId}
          className="whitespace-pre-wrap break-words rounded-md border-l-4 border-red-400 bg-red-50/60 px-3 py-2 font-mono text-[13px] text-slate-900"
        >
          {text}
        </blockquote>
      ) : (
        <p className="text-slate-500">No message text was reported.</p>
      )}
    </figure>
  );
}
