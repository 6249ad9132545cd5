import type { ToolCallEvent } from "../../contracts/event";
import type { Category } from "../../contracts/categories";

/**
 * One tool request as Toolgate's `ingest.batch` takes it (the contract is `contracts/event.ts`;
 * this plain copy of its type keeps zod out of the SDK's declarations, and the check below fails
 * the type check when the two drift apart).
 */
export interface ToolgateEvent {
  id: string;
  runId: string;
  step?: number;
  /** Which model response of the run wrote the call: the calls of one `dispatch` share it. */
  turn?: number;
  timestamp: string;
  model: { provider?: string; name: string; version?: string };
  tool: string;
  /** The arguments as the model wrote them: an object, or the raw string when they were not a JSON object. */
  arguments: Record<string, unknown> | string;
  outcome?: { valid: boolean; category?: Category; message?: string };
  /** What happened when the call ran (isomorphic/outcome.ts maps each status onto an execution outcome). */
  result?: { status: "ok" | "error" | "not_found" | "timeout" | "not_allowed"; summary?: string; latencyMs?: number };
  correctsId?: string;
  usage?: { inputTokens?: number; outputTokens?: number; costUsd?: number };
  toolVersion?: string;
  /** The names of the tools the model call was given (Toolgate counts the run's context cost with them). */
  toolSet?: string[];
  metadata?: Record<string, string>;
}

export type ModelRef = ToolgateEvent["model"];
export type Usage = NonNullable<ToolgateEvent["usage"]>;

type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsContract: Equal<ToolgateEvent, ToolCallEvent> = true;
void sameAsContract;
