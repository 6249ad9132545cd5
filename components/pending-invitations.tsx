"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "./trpc-provider";
import { Alert, Button } from "./ui";

/** The signed-in user's invitations into projects, to accept or decline; nothing when there are none. */
export function PendingInvitations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invitations = useQuery(trpc.members.myInvitations.queryOptions());
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.members.myInvitations.queryKey() });
  const accept = useMutation(
    trpc.members.accept.mutationOptions({ onError: (e) => setError(e.message), onSuccess: (joined) => window.location.assign(`/p/${joined.project}`) }),
  );
  const decline = useMutation(trpc.members.decline.mutationOptions({ onError: (e) => setError(e.message), onSettled: refresh }));
  if (!invitations.data?.length) return null;

  return (
    <section aria-label="Invitations" className="mb-6 space-y-3 rounded-md border border-indigo-200 bg-indigo-50 p-4">
      {error && <Alert tone="error">{error}</Alert>}
      {invitations.data.map((invitation) => (
        <div key={invitation.project.slug} data-testid="invitation" className="flex flex-wrap items-center gap-3">
          <p className="flex-1 text-indigo-950">
            You are invited to <span className="font-medium">{invitation.project.name}</span> as {invitation.role}.
          </p>
          <Button size="sm" disabled={accept.isPending} onClick={() => accept.mutate({ project: invitation.project.slug })}>
            Accept
          </Button>
          <Button size="sm" variant="secondary" disabled={decline.isPending} onClick={() => decline.mutate({ project: invitation.project.slug })}>
            Decline
          </Button>
        </div>
      ))}
    </section>
  );
}
