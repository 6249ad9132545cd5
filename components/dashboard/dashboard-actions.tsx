import type { ResolvedRange } from "../../contracts/range";
import { LiveRefresh } from "./live-refresh";
import type { Params } from "./params";
import { RangePicker } from "./range-picker";

/** A dashboard's header controls: the live refresh and the one range control. */
export function DashboardActions({
  path,
  params,
  range,
  zone,
  renderedAt,
}: {
  path: string;
  params: Params;
  range: ResolvedRange;
  zone: string;
  renderedAt: number;
}) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
      <LiveRefresh renderedAt={renderedAt} />
      <RangePicker path={path} params={params} range={range} zone={zone} />
    </div>
  );
}
