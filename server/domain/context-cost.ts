// Context cost: the tokens a tool's definition takes in every model call that carries it, counted
// with a real tokenizer (js-tiktoken, its ranks bundled: nothing is downloaded at run time). Pure.

import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

/**
 * The encoding counted with: OpenAI's o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5). Other
 * families (Claude, Gemini, Llama) do not publish theirs for offline use; for them the count is
 * an estimate of the same text.
 */
const TOKENIZER = "o200k_base";

let encoder: Tiktoken | undefined;

type Definition = { name: string; description?: string; parameters: unknown };

/** The definition as OpenAI's API carries it ({"type":"function","function":{…}}), in tokens; the provider's own wrapping adds a few per tool. */
export function definitionTokens(tool: Definition): number {
  encoder ??= new Tiktoken(o200kBase);
  const text = JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description ?? "", parameters: tool.parameters } });
  return encoder.encode(text).length;
}

/** A tool set's tokens per model call, and each tool's, the costliest first. */
export function toolSetTokens(tools: readonly Definition[]): { tokenizer: string; total: number; tools: { name: string; tokens: number }[] } {
  const each = tools.map((t) => ({ name: t.name, tokens: definitionTokens(t) })).sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : 1));
  return { tokenizer: TOKENIZER, total: each.reduce((s, t) => s + t.tokens, 0), tools: each };
}
