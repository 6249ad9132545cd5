/** A whole-number benchmark option: the flag (`--events 1000` or `--events=1000`) wins over the environment variable, which wins over the default. */
export function option(flag: string, envName: string, fallback: number): number {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === `--${flag}` || a.startsWith(`--${flag}=`));
  const raw = at < 0 ? process.env[envName] : args[at]!.includes("=") ? args[at]!.split("=")[1] : args[at + 1];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw.replace(/[_,]/g, ""));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${flag} (${envName}) must be a whole number ≥ 1, got "${raw}"`);
  return value;
}
