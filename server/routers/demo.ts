import { loadDemoData } from "../services/demo/load-demo";
import { DEMO_LOAD_ROLE, openDemoProject } from "../services/demo/demo-project";
import { projectProcedure, router, userProcedure } from "../trpc/init";

export const demoRouter = router({
  /** "Load demo data" on an empty project: 30 days of a loan agent's tool calls, ending now. */
  load: projectProcedure(DEMO_LOAD_ROLE).mutation(({ ctx }) => loadDemoData(ctx.project, { now: new Date() })),
  /** The same demo data in the user's own demo project (created on the first call, refreshed on later ones): the switcher's "Load demo data…". */
  openProject: userProcedure.mutation(({ ctx }) => openDemoProject(ctx.user.id)),
});
