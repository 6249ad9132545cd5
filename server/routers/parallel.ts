import { z } from "zod";
import { rangeInput } from "../../contracts/metrics";
import { filterText } from "../../contracts/text-limits";
import { derivedAnswer } from "../services/derived/answers";
import { projectProcedure, router } from "../trpc/init";

const toRange = (r: { from: string; to: string }) => ({ from: new Date(r.from), to: new Date(r.to) });
/** The models page's versions: "" is a model's calls that named no version (as the rollups key them). */
const versions = z.array(z.object({ model: filterText("model").min(1, "name the model"), version: filterText("modelVersion") })).max(20);

/**
 * Parallel calls (docs/events.md, "Parallel calls"): each a bounded read of the calls that carry a turn; over a preset range
 * a stored answer while fresh (`asOf`: when it was computed; null: computed now).
 */
export const parallelRouter = router({
  tool: projectProcedure("viewer")
    .input(z.object({ range: rangeInput, tool: filterText("tool").min(1, "name the tool") }))
    .query(async ({ ctx, input }) => {
      const { answer, asOf } = await derivedAnswer(ctx.project.id, "parallel-tool", toRange(input.range), { tool: input.tool });
      return { ...answer, asOf };
    }),
  models: projectProcedure("viewer")
    .input(z.object({ range: rangeInput, versions }))
    .query(async ({ ctx, input }) => {
      const versions = input.versions.map((v) => ({ model: v.model, version: v.version === "" ? null : v.version }));
      const { answer, asOf } = await derivedAnswer(ctx.project.id, "parallel-models", toRange(input.range), { versions });
      return answer.map((v) => ({ ...v, asOf }));
    }),
});
