"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useTRPC } from "../trpc-provider";
import { Alert, Button } from "../ui";

/** Fills an empty project with 30 days of demo traffic, then shows the dashboards. */
export function LoadDemoButton({ project }: { project: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const load = useMutation(trpc.demo.load.mutationOptions({ onSuccess: () => startTransition(() => router.refresh()) }));
  const busy = load.isPending || refreshing || load.isSuccess;
  return (
    <div className="space-y-3">
      <Button onClick={() => load.mutate({ project })} disabled={busy}>
        {load.isPending ? "Loading demo data…" : refreshing || load.isSuccess ? "Opening the dashboards…" : "Load demo data"}
      </Button>
      {load.isPending && <p className="text-xs text-slate-500">About 30,000 tool calls go through ingestion; this takes a few seconds.</p>}
      {load.error && <Alert tone="error">Could not load the demo data: {load.error.message}</Alert>}
    </div>
  );
}
