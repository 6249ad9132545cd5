import type { TestProject } from "vitest/node";
import { createFreshDatabase, startTestServer } from "../scripts/lib/test-database";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    postgresAdminUrl: string;
  }
}

/** One real PostgreSQL for the run, with a fresh migrated database that every test file shares. */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  const database = await createFreshDatabase(server);
  project.provide("databaseUrl", database.url);
  project.provide("postgresAdminUrl", server.urlFor("postgres"));
  return async () => {
    await database.drop();
    await server.stop();
  };
}
