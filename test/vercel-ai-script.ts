/**
 * The scripted model turns of the Vercel AI SDK tests (app/v1/traces/vercel-ai.integration.test.ts),
 * as plain data both majors' mock models take (`MockLanguageModelV3` of ai 6, `MockLanguageModelV4`
 * of ai 7: the same result and stream-part shapes).
 */
const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

const toolCall = (toolCallId: string, toolName: string, input: string) => ({ type: "tool-call" as const, toolCallId, toolName, input });
const finish = (calls: boolean) => ({ unified: calls ? ("tool-calls" as const) : ("stop" as const), raw: calls ? "tool_calls" : "stop" });
const response = (id: string, second: number) => ({ id, modelId: "acme-large-2026-11", timestamp: new Date(`2026-11-30T09:00:0${second}Z`) });

/** One `doGenerate` result. */
export interface Turn {
  content: (ReturnType<typeof toolCall> | { type: "text"; text: string })[];
  finishReason: ReturnType<typeof finish>;
  usage: ReturnType<typeof usage>;
  response?: ReturnType<typeof response>;
  warnings: never[];
}

/** An invalid call (wrong argument name, which the SDK refuses without running the tool), the corrected call, the answer. */
export const refusedThenCorrected = (): Turn[] => [
  { content: [toolCall("tc-1", "getloan", '{"loan": "447"}')], finishReason: finish(true), usage: usage(120, 15), response: response("r1", 0), warnings: [] },
  {
    content: [toolCall("tc-2", "getloan", '{"loannumber": "447"}')],
    finishReason: finish(true),
    usage: usage(160, 18),
    response: response("r2", 1),
    warnings: [],
  },
  {
    content: [{ type: "text" as const, text: "Loan 447 is current." }],
    finishReason: finish(false),
    usage: usage(200, 8),
    response: response("r3", 2),
    warnings: [],
  },
];

/** The unknown tool `getloans`, the retry under the right name, the answer (the SDK sends the error back as the tool result). */
export const renaming = (): Turn[] => [
  { content: [toolCall("rn-1", "getloans", '{"loannumber": "447"}')], finishReason: finish(true), usage: usage(120, 15), warnings: [] },
  { content: [toolCall("rn-2", "getloan", '{"loannumber": "447"}')], finishReason: finish(true), usage: usage(160, 18), warnings: [] },
  { content: [{ type: "text" as const, text: "Loan 447 is current." }], finishReason: finish(false), usage: usage(200, 8), warnings: [] },
];

/** `renaming` as a stream: one `doStream` per turn. */
export function renamingStream() {
  const turns = [
    [toolCall("rn-1", "getloans", '{"loannumber": "447"}')],
    [toolCall("rn-2", "getloan", '{"loannumber": "447"}')],
    [
      { type: "text-start" as const, id: "t" },
      { type: "text-delta" as const, id: "t", delta: "Loan 447 is current." },
      { type: "text-end" as const, id: "t" },
    ],
  ];
  let turn = 0;
  return async () => {
    const parts = turns[turn++] ?? [];
    const calls = parts.some((p) => p.type === "tool-call");
    return {
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.enqueue({ type: "finish" as const, finishReason: finish(calls), usage: usage(100, 10) });
          controller.close();
        },
      }),
    };
  };
}
