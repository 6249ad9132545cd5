/** Text with `code` spans (the patterns' and suggestions' wording) as React text with <code> elements. */
export function Ticks({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        i % 2 ? (
          <code key={i} className="rounded bg-slate-100 px-1 py-px font-mono text-[0.85em] text-slate-800">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
