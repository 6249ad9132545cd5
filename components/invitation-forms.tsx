"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formErrors } from "./form-errors";
import { NewPasswordFields } from "./new-password-fields";
import { useTRPC } from "./trpc-provider";
import { Alert, Button, Field, Input } from "./ui";

/** Accept or decline an invitation link as the signed-in user. */
export function AcceptInvitationForm({ token, email, pageError }: { token: string; email: string; pageError?: string }) {
  const trpc = useTRPC();
  const accept = useMutation(trpc.members.accept.mutationOptions({ onSuccess: (joined) => window.location.assign(`/p/${joined.project}`) }));
  const decline = useMutation(trpc.members.decline.mutationOptions({ onSuccess: () => window.location.assign("/") }));
  const errors = formErrors(accept.error ?? decline.error, [], accept.isIdle && decline.isIdle ? pageError : null);
  return (
    <form
      method="post"
      action="/api/forms/accept-invitation"
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const declining = (e.nativeEvent as SubmitEvent).submitter?.getAttribute("value") === "decline";
        (declining ? decline : accept).mutate({ token });
      }}
    >
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <input type="hidden" name="token" value={token} />
      <div className="flex gap-3">
        <Button type="submit" className="flex-1" disabled={accept.isPending || decline.isPending}>
          {accept.isPending ? "Joining…" : `Join as ${email}`}
        </Button>
        <Button type="submit" variant="secondary" formAction="/api/forms/decline-invitation" value="decline" disabled={accept.isPending || decline.isPending}>
          Decline
        </Button>
      </div>
    </form>
  );
}

/** A new account for whoever holds the link: an address of their choice (prefilled with the invited one) and a password. */
export function JoinWithNewAccountForm({ token, invitedEmail, pageError }: { token: string; invitedEmail: string; pageError?: string }) {
  const trpc = useTRPC();
  const [mismatch, setMismatch] = useState(false);
  const join = useMutation(trpc.auth.acceptInvitationAsNewAccount.mutationOptions({ onSuccess: (joined) => window.location.assign(`/p/${joined.project}`) }));
  const errors = formErrors(join.error, ["email", "password", "name"], join.isIdle && !mismatch ? pageError : null);
  return (
    <form
      method="post"
      action="/api/forms/join-invitation"
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const password = String(data.get("password") ?? "");
        if (password !== String(data.get("repeat") ?? "")) return setMismatch(true);
        setMismatch(false);
        join.mutate({ token, email: String(data.get("email") ?? ""), password, name: String(data.get("name") ?? "").trim() || undefined });
      }}
    >
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <input type="hidden" name="token" value={token} />
      <Field
        label="Email"
        htmlFor="email"
        error={errors.field.email}
        hint="Your sign-in name. The invited address is filled in; any address not yet taken works."
      >
        <Input id="email" name="email" type="email" autoComplete="username" required defaultValue={invitedEmail} invalid={!!errors.field.email} />
      </Field>
      <NewPasswordFields name="password" label="Password" error={errors.field.password} mismatch={mismatch} />
      <Button type="submit" className="w-full" disabled={join.isPending || join.isSuccess}>
        {join.isPending || join.isSuccess ? "Creating your account…" : "Create account and join"}
      </Button>
    </form>
  );
}
