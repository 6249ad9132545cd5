import { alertsRouter } from "./alerts";
import { apiKeysRouter } from "./apiKeys";
import { authRouter } from "./auth";
import { callsRouter } from "./calls";
import { demoRouter } from "./demo";
import { ingestRouter } from "./ingest";
import { membersRouter } from "./members";
import { metricsRouter } from "./metrics";
import { otlpRouter } from "./otlp";
import { parallelRouter } from "./parallel";
import { paletteRouter } from "./palette";
import { projectsRouter } from "./projects";
import { systemRouter } from "./system";
import { toolsRouter } from "./tools";
import { webhooksRouter } from "./webhooks";
import { createCallerFactory, router } from "../trpc/init";

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  projects: projectsRouter,
  members: membersRouter,
  apiKeys: apiKeysRouter,
  ingest: ingestRouter,
  calls: callsRouter,
  metrics: metricsRouter,
  alerts: alertsRouter,
  webhooks: webhooksRouter,
  tools: toolsRouter,
  demo: demoRouter,
  otlp: otlpRouter,
  palette: paletteRouter,
  parallel: parallelRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
