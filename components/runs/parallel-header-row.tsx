import { formatCount } from "@/contracts/format-number";
import { parallelLabel } from "./turns";

/**
 * The row that opens a turn of several calls in the run timeline: how many calls one model
 * response requested together, and how many of them failed to pass the gate.
 */
export function ParallelHeaderRow({ calls }: { calls: readonly { turn: number | null; valid: boolean | null }[] }) {
  const invalid = calls.filter((c) => c.valid === false).length;
  return (
    <tr data-testid="run-turn" className="bg-indigo-50/40">
      <td colSpan={5} className="border-l-2 border-indigo-300 py-1.5 pl-2 pr-3 text-xs">
        <span className="font-semibold text-indigo-800">{parallelLabel(calls.length)}</span>
        <span className="text-slate-600">
          {" "}
          · turn {calls[0]!.turn} · requested together by one model response
          {invalid > 0 && invalid < calls.length ? ` · ${formatCount(invalid)} of them invalid` : ""}
        </span>
      </td>
    </tr>
  );
}
