import { defineTool } from "@toolgate/sdk";

/** A tiny in-memory loan book: the handlers' data. */
const LOANS: Record<string, { holder: string; balance: number; rate: number; channel: string }> = {
  "4471": { holder: "A. Jansen", balance: 182_400, rate: 3.9, channel: "email" },
  "8812": { holder: "M. de Vries", balance: 96_250, rate: 4.2, channel: "post" },
};

function loan(loannumber: string) {
  const found = LOANS[loannumber];
  if (!found) throw new Error(`no loan ${loannumber}; loan numbers are digits, such as 4471`);
  return found;
}

export const loanTools = [
  defineTool({
    name: "getloan",
    description: "A loan's holder, balance and rate.",
    parameters: {
      type: "object",
      properties: { loannumber: { type: "string", pattern: "^[0-9]+$", description: "digits only, e.g. 4471" } },
      required: ["loannumber"],
      additionalProperties: false,
    },
    handler: ({ loannumber }) => ({ loannumber, ...loan(String(loannumber)) }),
  }),
  defineTool({
    name: "getpayments",
    description: "The loan's scheduled payments for the next months.",
    parameters: {
      type: "object",
      properties: {
        loannumber: { type: "string", pattern: "^[0-9]+$" },
        months: { type: "integer", minimum: 1, maximum: 36 },
      },
      required: ["loannumber", "months"],
      additionalProperties: false,
    },
    handler: ({ loannumber, months }) => {
      const { balance, rate } = loan(String(loannumber));
      const monthly = Math.round((balance * (rate / 100 / 12)) / (1 - (1 + rate / 100 / 12) ** -360));
      return Array.from({ length: Number(months) }, (_, i) => ({ month: i + 1, amount: monthly }));
    },
  }),
  defineTool({
    name: "setcontact",
    description: "How the holder is contacted about the loan.",
    parameters: {
      type: "object",
      properties: { loannumber: { type: "string", pattern: "^[0-9]+$" }, channel: { type: "string", enum: ["email", "sms", "post"] } },
      required: ["loannumber", "channel"],
      additionalProperties: false,
    },
    handler: ({ loannumber, channel }) => {
      loan(String(loannumber)).channel = String(channel);
      return { loannumber, channel, updated: true };
    },
  }),
];
