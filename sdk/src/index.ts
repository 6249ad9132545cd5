export { Toolgate, Run, type ToolgateOptions, type RunOptions, type TurnOptions, type CallOutcome } from "./toolgate";
export { defineTool, type ToolSpec, type AnyToolSpec, type DefinedTool, type HandlerContext, type SelfDescribingSchema } from "./tools";
export { ApiKeyError } from "./api-key";
export { Reporter, ReporterError, type ReporterOptions, type ReporterStats, type ReporterErrorKind, type ToolRegistration } from "./reporter";
export {
  normalizeCalls,
  toolResult,
  type Provider,
  type AnyToolCall,
  type OpenAIToolCall,
  type ResponsesFunctionCall,
  type AnthropicToolUse,
  type AiSdkToolCall,
  type ToolResultMessage,
  type OpenAIToolMessage,
  type ResponsesFunctionCallOutput,
  type AnthropicToolResult,
  type AiSdkToolResult,
  type NormalizedCall,
} from "./calls";
export type { ToolgateEvent, ModelRef, Usage } from "./event";
export type { Verdict, Violation } from "../../isomorphic/classify";
export type { Category } from "../../contracts/categories";
export { withToolgate, type WithToolgateOptions, type McpServerLike, type McpTransportLike } from "./mcp-server";
export type { Enforce } from "./mcp";
