"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useTRPC } from "../trpc-provider";
import { Button } from "../ui";

/** Admins: run the evaluator now instead of waiting for its next minute. */
export function EvaluateNowButton({ slug }: { slug: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [refreshing, startTransition] = useTransition();
  const evaluate = useMutation(
    trpc.alerts.evaluateNow.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.alerts.firingCount.queryKey({ project: slug }) });
        startTransition(() => router.refresh());
      },
    }),
  );
  const result = evaluate.data;
  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" onClick={() => evaluate.mutate({ project: slug })} disabled={evaluate.isPending || refreshing}>
        {evaluate.isPending ? "Evaluating…" : "Evaluate now"}
      </Button>
      <p className="min-h-4 text-xs text-slate-500" role="status" data-testid="evaluate-result">
        {evaluate.error ? (
          <span className="text-red-700">{evaluate.error.message}</span>
        ) : result && "busy" in result ? (
          "Another evaluation is running; try again in a moment."
        ) : result ? (
          `${result.evaluated} rule${result.evaluated === 1 ? "" : "s"} evaluated: ${result.fired} fired, ${result.resolved} resolved.`
        ) : (
          "Rules are also evaluated every minute."
        )}
      </p>
    </div>
  );
}
