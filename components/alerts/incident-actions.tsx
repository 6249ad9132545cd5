"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useTRPC } from "../trpc-provider";
import { Alert, Button, Field } from "../ui";
import { CountedInput } from "../counted-input";
import { TEXT_LIMITS } from "../../contracts/text-limits";

/** Acknowledge (firing) and resolve (firing or acknowledged), each with an optional note. */
export function IncidentActions({ slug, id, state }: { slug: string; id: string; state: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const [refreshing, startTransition] = useTransition();
  const done = {
    onSuccess: () => {
      setNote("");
      void queryClient.invalidateQueries({ queryKey: trpc.alerts.firingCount.queryKey({ project: slug }) });
      startTransition(() => router.refresh());
    },
  };
  const acknowledge = useMutation(trpc.alerts.acknowledge.mutationOptions(done));
  const resolve = useMutation(trpc.alerts.resolve.mutationOptions(done));
  const busy = acknowledge.isPending || resolve.isPending || refreshing;
  const error = acknowledge.error ?? resolve.error;
  if (state === "resolved") return null;
  const input = () => ({ project: slug, id, ...(note.trim() ? { note: note.trim() } : {}) });

  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (state === "firing") acknowledge.mutate(input());
      }}
    >
      {error && <Alert tone="error">{error.message}</Alert>}
      <Field label="Note (optional)" htmlFor="incident-note">
        <CountedInput max={TEXT_LIMITS.actionNote} id="incident-note" value={note} onChange={(e) => setNote(e.target.value)} autoComplete="off" />
      </Field>
      <div className="flex flex-wrap gap-2">
        {state === "firing" && (
          <Button type="submit" disabled={busy}>
            {acknowledge.isPending ? "Acknowledging…" : "Acknowledge"}
          </Button>
        )}
        <Button variant="secondary" disabled={busy} onClick={() => resolve.mutate(input())}>
          {resolve.isPending ? "Resolving…" : "Resolve"}
        </Button>
      </div>
    </form>
  );
}
