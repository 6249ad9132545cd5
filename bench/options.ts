/** A benchmark option as text: the flag (`--reuse db` or `--reuse=db`) wins over the environment variable; undefined when neither is set. */
export function textOption(flag: string, envName: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === `--${flag}` || a.startsWith(`--${flag}=`));
  return at < 0 ? process.env[envName] : args[at]!.includes("=") ? args[at]!.split("=")[1] : args[at + 1];
}

/**
 * `--smoke` (npm run bench:smoke runs every benchmark so): small sizes that take seconds. A smoke
 * run still fails on a wrong answer or a crash, never on a figure, so that a benchmark that no
 * longer works is found at once rather than at the next measurement.
 */
export const SMOKE = process.argv.slice(2).includes("--smoke");

/**
 * A whole-number benchmark option: the flag (`--events 1000` or `--events=1000`) wins over the environment variable,
 * which wins over the default (`smoke` with --smoke).
 */
export function option(flag: string, envName: string, fallback: number, smoke = fallback): number {
  const raw = textOption(flag, envName);
  if (raw === undefined || raw === "") return SMOKE ? smoke : fallback;
  const value = Number(raw.replace(/[_,]/g, ""));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${flag} (${envName}) must be a whole number ≥ 1, got "${raw}"`);
  return value;
}
