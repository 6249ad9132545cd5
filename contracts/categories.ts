import { z } from "zod";

/** Failure categories of an invalid tool request. One per request: the first that applies, in this order. */
export const CATEGORIES = [
  "malformed_arguments",
  "unknown_tool",
  "extra_argument",
  "missing_argument",
  "wrong_type",
  "invalid_choice",
  "out_of_range",
  "not_allowed",
] as const;
export type Category = (typeof CATEGORIES)[number];
// pure: lets bundles that only need the list (the SDK) leave zod out
export const categorySchema = /* @__PURE__ */ z.enum(CATEGORIES);

export const CATEGORY_LABELS: Record<Category, string> = {
  malformed_arguments: "Malformed arguments",
  unknown_tool: "Unknown tool",
  extra_argument: "Extra argument",
  missing_argument: "Missing argument",
  wrong_type: "Wrong type",
  invalid_choice: "Invalid choice",
  out_of_range: "Out of range",
  not_allowed: "Not allowed",
};

export const CATEGORY_DESCRIPTIONS: Record<Category, string> = {
  malformed_arguments: "The arguments are not a JSON object.",
  unknown_tool: "No tool of that name.",
  extra_argument: "An argument the schema does not define.",
  missing_argument: "A required argument is absent.",
  wrong_type: "A value of the wrong JSON type.",
  invalid_choice: "A value outside an enum or const.",
  out_of_range: "A value outside its range, length, pattern or format.",
  not_allowed: "The call is valid but refused by a policy (limits, approval).",
};

/** Position in the "first match wins" order: lower ranks win. */
export function categoryRank(category: Category): number {
  return CATEGORIES.indexOf(category);
}
