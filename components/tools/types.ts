import type { inferProcedureOutput, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/routers/root";

type Outputs = inferRouterOutputs<AppRouter>;
type PatternsAnswer = Outputs["tools"]["patterns"];
export type FailurePatternRow = PatternsAnswer["patterns"][number];
export type SuggestionRow = PatternsAnswer["suggestions"][number];
export type ConfusablePairRow = Outputs["tools"]["confusablePairs"]["pairs"][number];
export type ContextCostAnswer = Outputs["tools"]["projectContextCost"];
/** As a server component's caller gets it (dates as dates). */
export type EmptyResultExampleRow = inferProcedureOutput<AppRouter["tools"]["emptyResults"]>[number];
