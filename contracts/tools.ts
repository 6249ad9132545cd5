import { z } from "zod";

/** Tools in our shape {name, description?, parameters}, or OpenAI's or Anthropic's; normalized on the server. */
export const registerToolsInput = z.object({
  tools: z.array(z.unknown()).min(1, "send at least one tool").max(500, "register at most 500 tools at once"),
});

export const validateCallInput = z.object({
  tool: z.string().min(1, "name the tool").max(200),
  arguments: z.unknown(),
  toolVersion: z.string().max(100).optional(),
});
