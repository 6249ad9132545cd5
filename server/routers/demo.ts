import { loadDemoData } from "../services/demo/load-demo";
import { projectProcedure, router } from "../trpc/init";

export const demoRouter = router({
  /** "Load demo data" on an empty project: 30 days of a loan agent's tool calls, ending now. */
  load: projectProcedure("admin").mutation(({ ctx }) => loadDemoData(ctx.project.id, { now: new Date() })),
});
