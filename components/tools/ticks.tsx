/** Text with `code` spans (the patterns' and suggestions' wording) as React text with <code> elements. */
export function Ticks({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        i % 2 ? (
          <code key={i} className="code-chip">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
