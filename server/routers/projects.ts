import { z } from "zod";
import { createProjectInput, projectNameSchema, retentionInput } from "../../contracts/accounts";
import { createProject, deleteProject, projectsOf, renameProject } from "../services/projects";
import { getRetention, setRetention } from "../services/retention/sweep";
import { withProjectShare } from "../services/tenancy/shares";
import { projectProcedure, router, userProcedure } from "../trpc/init";

export const projectsRouter = router({
  list: userProcedure.query(({ ctx }) => projectsOf(ctx.user.id)),
  create: userProcedure.input(createProjectInput).mutation(({ ctx, input }) => createProject(ctx.user.id, input.name, input.slug)),
  get: projectProcedure("viewer").query(({ ctx }) => ({ ...ctx.project, role: ctx.role })),
  rename: projectProcedure("admin")
    .input(z.object({ name: projectNameSchema }))
    .mutation(({ ctx, input }) => renameProject(ctx.project.id, input.name)),
  retention: projectProcedure("viewer").query(({ ctx }) => getRetention(ctx.project.id)),
  setRetention: projectProcedure("admin")
    .input(retentionInput)
    .mutation(({ ctx, input }) => setRetention(ctx.project.id, input)),
  delete: projectProcedure("owner").mutation(async ({ ctx }) => {
    await withProjectShare(ctx.project, "projects.delete", () => deleteProject(ctx.project.id));
    return { ok: true };
  }),
});
