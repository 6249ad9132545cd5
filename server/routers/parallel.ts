import { z } from "zod";
import { rangeInput } from "../../contracts/metrics";
import { filterText } from "../../contracts/text-limits";
import { modelParallelCalls, toolParallelCalls } from "../services/parallel/parallel-calls";
import { projectProcedure, router } from "../trpc/init";

const toRange = (r: { from: string; to: string }) => ({ from: new Date(r.from), to: new Date(r.to) });
/** The models page's versions: "" is a model's calls that named no version (as the rollups key them). */
const versions = z.array(z.object({ model: filterText("model").min(1, "name the model"), version: filterText("modelVersion") })).max(20);

/** Parallel calls (docs/events.md, "Parallel calls"): each a bounded read of the calls that carry a turn. */
export const parallelRouter = router({
  tool: projectProcedure("viewer")
    .input(z.object({ range: rangeInput, tool: filterText("tool").min(1, "name the tool") }))
    .query(({ ctx, input }) => toolParallelCalls(ctx.project.id, input.tool, toRange(input.range))),
  models: projectProcedure("viewer")
    .input(z.object({ range: rangeInput, versions }))
    .query(({ ctx, input }) =>
      modelParallelCalls(
        ctx.project.id,
        input.versions.map((v) => ({ model: v.model, version: v.version === "" ? null : v.version })),
        toRange(input.range),
      ),
    ),
});
