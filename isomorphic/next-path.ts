/** Only same-site paths: "/p/x?tab=1" stays, "//evil.example", "https://…" and "/\\x" become "/". */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\") || /[\u0000-\u001f]/.test(raw)) return "/";
  return raw;
}
