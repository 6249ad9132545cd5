import { apiKeyProcedure, publicProcedure, router } from "../trpc/init";
import { whoamiOutput } from "../../contracts/api-answers";
import packageJson from "../../package.json" with { type: "json" };

export const systemRouter = router({
  info: publicProcedure.query(() => ({ name: "Toolgate", version: packageJson.version })),
  /** Lets a harness check its key: answers the key's project. */
  whoami: apiKeyProcedure("any")
    .output(whoamiOutput)
    .query(({ ctx }) => ({ project: ctx.project.slug, scope: ctx.apiKey.scope })),
});
