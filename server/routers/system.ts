import { publicProcedure, router } from "../trpc/init";
import packageJson from "../../package.json" with { type: "json" };

export const systemRouter = router({
  info: publicProcedure.query(() => ({ name: "Toolgate", version: packageJson.version })),
});
