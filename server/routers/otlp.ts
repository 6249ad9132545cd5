import { otlpStats, recentExports } from "../services/otlp/stats";
import { projectProcedure, router } from "../trpc/init";

export const otlpRouter = router({
  /** When the project's last span arrived, and how many were ignored (not GenAI) or rejected, with the last reason. */
  stats: projectProcedure("viewer").query(({ ctx }) => otlpStats(ctx.project.id)),
  /** The newest trace exports: spans received, calls stored, rejected, and why the ignored spans gave nothing. */
  exports: projectProcedure("viewer").query(({ ctx }) => recentExports(ctx.project.id)),
});
