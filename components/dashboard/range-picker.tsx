import { RANGE_PRESET_LABELS, RANGE_PRESETS, type RangePreset } from "../../contracts/metrics";
import { withParams, type ResolvedRange } from "../../contracts/range";
import type { Params } from "./params";
import { SegmentedLinks } from "./segmented";

/** 24h / 7d / 30d / 90d as links that keep the page's other parameters (a custom from/to is dropped). */
export function RangePicker({ path, params, range }: { path: string; params: Params; range: ResolvedRange }) {
  return (
    <div className="flex shrink-0 items-center gap-3">
      {range.preset === "custom" && <span className="text-xs text-slate-500">{range.label}</span>}
      <SegmentedLinks
        label="Time range"
        testId="range-picker"
        items={(Object.keys(RANGE_PRESETS) as RangePreset[]).map((preset) => ({
          label: preset,
          title: RANGE_PRESET_LABELS[preset],
          href: withParams(path, params, { range: preset, from: undefined, to: undefined }),
          active: range.preset === preset,
        }))}
      />
    </div>
  );
}
