"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useTRPC } from "../trpc-provider";
import { Alert, Button } from "../ui";

/**
 * "Load demo data" into the signed-in user's own demo project (demo.openProject): created on the
 * first load, refreshed on later ones; then opens it. The project switcher and the empty states use it.
 */
export function useOpenDemoProject(hasDemoProject: boolean) {
  const trpc = useTRPC();
  const router = useRouter();
  const [opening, startTransition] = useTransition();
  const load = useMutation(trpc.demo.openProject.mutationOptions({ onSuccess: (result) => startTransition(() => router.push(`/p/${result.slug}`)) }));
  const status = load.isPending
    ? hasDemoProject
      ? "Loading demo data: refreshing your demo project (only the calls since its last load are added)…"
      : "Loading demo data into a new demo project of yours (about 30,000 calls; a few seconds)…"
    : opening
      ? "Opening the demo project…"
      : load.error
        ? `Could not load the demo data: ${load.error.message}`
        : null;
  return { open: () => load.mutate(), busy: load.isPending || opening, status, failed: !!load.error };
}

/** The empty states' button for a demo project beside this one. */
export function OpenDemoProjectButton({ hasDemoProject, label }: { hasDemoProject: boolean; label: string }) {
  const demo = useOpenDemoProject(hasDemoProject);
  return (
    <div className="space-y-3">
      <Button variant="secondary" onClick={demo.open} disabled={demo.busy}>
        {label}
      </Button>
      {demo.status &&
        (demo.failed ? (
          <Alert tone="error">{demo.status}</Alert>
        ) : (
          <p role="status" className="text-xs text-slate-500">
            {demo.status}
          </p>
        ))}
    </div>
  );
}
