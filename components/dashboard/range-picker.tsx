import { RANGE_PRESET_LABELS, RANGE_PRESETS, type RangePreset } from "../../contracts/metrics";
import { withParams, type ResolvedRange } from "../../contracts/range";
import { CustomRange } from "./custom-range";
import type { Params } from "./params";
import { SegmentedLinks } from "./segmented";

/** "all": the calls explorer's extra choice, every stored call (no time filter). */
type PickedRange = Pick<ResolvedRange, "from" | "to"> & { preset: ResolvedRange["preset"] | "all" };

/**
 * The one range control of every page with a time range: 24h / 7d / 30d / 90d (and "all" where
 * the page offers it: the calls explorer) as links that keep the page's other parameters, and
 * "Custom…" for a typed range. The range's label is the page's to show (once).
 */
export function RangePicker({
  path,
  params,
  range,
  zone,
  allTime = false,
}: {
  path: string;
  params: Params;
  range: PickedRange;
  zone: string;
  allTime?: boolean;
}) {
  const presets: { key: RangePreset | "all"; title: string }[] = (Object.keys(RANGE_PRESETS) as RangePreset[]).map((key) => ({
    key,
    title: RANGE_PRESET_LABELS[key],
  }));
  if (allTime) presets.push({ key: "all", title: "All time" });
  return (
    <div className="flex shrink-0 items-center gap-2">
      <SegmentedLinks
        label="Time range"
        testId="range-picker"
        items={presets.map(({ key, title }) => ({
          label: key,
          title,
          href: withParams(path, params, { range: key, from: undefined, to: undefined }),
          active: range.preset === key,
        }))}
      />
      <CustomRange path={path} params={params} range={range} active={range.preset === "custom"} zone={zone} />
    </div>
  );
}
