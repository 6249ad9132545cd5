import { apiKeysRouter } from "../routers/apiKeys";
import { authRouter } from "../routers/auth";
import { membersRouter } from "../routers/members";
import { projectsRouter } from "../routers/projects";
import { systemRouter } from "../routers/system";
import { createCallerFactory, router } from "./init";

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  projects: projectsRouter,
  members: membersRouter,
  apiKeys: apiKeysRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
