import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/routers/root";

type Outputs = inferRouterOutputs<AppRouter>;
type PatternsAnswer = Outputs["tools"]["patterns"];
export type FailurePatternRow = PatternsAnswer["patterns"][number];
export type SuggestionRow = PatternsAnswer["suggestions"][number];
