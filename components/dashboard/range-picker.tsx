import { RANGE_PRESET_LABELS, RANGE_PRESETS, type RangePreset } from "../../contracts/metrics";
import { withParams, type ResolvedRange } from "../../contracts/range";
import { CustomRange } from "./custom-range";
import type { Params } from "./params";
import { SegmentedLinks } from "./segmented";

/**
 * The dashboards' one range control: 24h / 7d / 30d / 90d as links that keep the page's other
 * parameters, and "Custom…" for a typed range. The range's label is the page's to show (once).
 */
export function RangePicker({ path, params, range, zone }: { path: string; params: Params; range: ResolvedRange; zone: string }) {
  return (
    <div className="flex shrink-0 items-center gap-2">
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
      <CustomRange path={path} params={params} range={range} active={range.preset === "custom"} zone={zone} />
    </div>
  );
}
