import { Toolgate, type CallOutcome, type ReporterError } from "@toolgate/sdk";
import { assistantMessage, SCRIPTS } from "./scripted-model";
import { loanTools } from "./tools";

export type ExampleResult = { outcomes: CallOutcome[]; stats: ReturnType<Toolgate["stats"]>; errors: ReporterError[] };

/**
 * The loan assistant's harness: the scripted model's tool calls go through the SDK's dispatcher,
 * which runs the valid ones, answers the others with the message the model then corrects by, and
 * reports every call to Toolgate at `url` (nothing is reported without a url and key).
 */
export async function runLoanAssistant(options: { url?: string; apiKey?: string; log?: (line: string) => void } = {}): Promise<ExampleResult> {
  const log = options.log ?? (() => {});
  const errors: ReporterError[] = [];
  const toolgate = new Toolgate({
    url: options.url,
    apiKey: options.apiKey,
    model: { provider: "scripted", name: "loan-assistant-model", version: "2026-11" },
    tools: loanTools,
    timeoutMs: 5000,
    reporter: { onError: (error) => errors.push(error) },
  });
  const outcomes: CallOutcome[] = [];
  const started = Date.now();

  for (const [index, script] of SCRIPTS.entries()) {
    const run = toolgate.run({ runId: `loan-assistant-${started}-${index}`, metadata: { task: script.task } });
    log(`\n[${script.provider}] ${script.task}`);
    for (const turn of script.turns) {
      let calls = turn.calls;
      // the model answers each refusal with its correction, at most twice
      for (let attempt = 0; attempt < 3 && calls.length > 0; attempt++) {
        const { message, usage } = assistantMessage(script.provider, turn.say, calls);
        const results = await run.dispatch(message, { usage });
        outcomes.push(...results);
        for (const r of results) log(`  ${r.status === "ok" ? "ok     " : r.status === "invalid" ? "refused" : "error  "} ${r.call.tool}: ${r.content}`);
        calls = results.flatMap((result, i) => {
          if (result.status !== "invalid") return [];
          const fixed = turn.fix?.(result.content, calls[i]!);
          return fixed ? [fixed] : [];
        });
      }
    }
  }
  const stats = await toolgate.shutdown();
  return { outcomes, stats, errors };
}
