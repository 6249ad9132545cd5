import type { Category } from "../../contracts/categories";

/** Tools and one call per failure category (plus a valid one): the SDK and the server must give each the same verdict. */
export const CASE_TOOLS = [
  {
    name: "getloan",
    description: "A loan by its number",
    parameters: {
      type: "object",
      properties: {
        loannumber: { type: "string", pattern: "^[0-9]+$" },
        detail: { type: "string", enum: ["summary", "full"] },
        months: { type: "integer", minimum: 1, maximum: 360 },
      },
      required: ["loannumber"],
      additionalProperties: false,
    },
  },
  {
    name: "listpayments",
    parameters: { type: "object", properties: { loannumber: { type: "string" }, since: { type: "string", format: "date" } }, required: ["loannumber"] },
  },
];

export const VERDICT_CASES: { name: string; tool: string; arguments: unknown; category: Category | null }[] = [
  { name: "valid", tool: "getloan", arguments: '{"loannumber": "447", "detail": "full"}', category: null },
  { name: "malformed arguments", tool: "getloan", arguments: '{"loannumber": "447"', category: "malformed_arguments" },
  { name: "unknown tool", tool: "get_loan", arguments: { loannumber: "447" }, category: "unknown_tool" },
  { name: "extra argument", tool: "getloan", arguments: { loannumber: "447", loan_id: "447" }, category: "extra_argument" },
  { name: "missing argument", tool: "listpayments", arguments: { since: "2026-10-01" }, category: "missing_argument" },
  { name: "wrong type", tool: "getloan", arguments: '{"loannumber": 447}', category: "wrong_type" },
  { name: "invalid choice", tool: "getloan", arguments: { loannumber: "447", detail: "everything" }, category: "invalid_choice" },
  { name: "out of range", tool: "getloan", arguments: { loannumber: "447", months: 400 }, category: "out_of_range" },
  { name: "out of range (format)", tool: "listpayments", arguments: { loannumber: "447", since: "last week" }, category: "out_of_range" },
];
