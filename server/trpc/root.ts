import { alertsRouter } from "../routers/alerts";
import { apiKeysRouter } from "../routers/apiKeys";
import { authRouter } from "../routers/auth";
import { callsRouter } from "../routers/calls";
import { demoRouter } from "../routers/demo";
import { ingestRouter } from "../routers/ingest";
import { membersRouter } from "../routers/members";
import { metricsRouter } from "../routers/metrics";
import { otlpRouter } from "../routers/otlp";
import { projectsRouter } from "../routers/projects";
import { systemRouter } from "../routers/system";
import { toolsRouter } from "../routers/tools";
import { webhooksRouter } from "../routers/webhooks";
import { createCallerFactory, router } from "./init";

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
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
