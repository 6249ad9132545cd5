import { RANGE_PRESETS } from "../../contracts/metrics";
import { withParams, type ResolvedRange } from "../../contracts/range";
import type { Params } from "./params";
import { SegmentedLinks } from "./segmented";

const TITLES: Record<string, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };

/** 24h / 7d / 30d / 90d as links that keep the page's other parameters (a custom from/to is dropped). */
export function RangePicker({ path, params, range }: { path: string; params: Params; range: ResolvedRange }) {
  return (
    <div className="flex shrink-0 items-center gap-3">
      {range.preset === "custom" && <span className="text-xs text-slate-500">{range.label}</span>}
      <SegmentedLinks
        label="Time range"
        testId="range-picker"
        items={Object.keys(RANGE_PRESETS).map((preset) => ({
          label: preset,
          title: TITLES[preset],
          href: withParams(path, params, { range: preset, from: undefined, to: undefined }),
          active: range.preset === preset,
        }))}
      />
    </div>
  );
}
