"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formErrors } from "./form-errors";
import { useTRPC } from "./trpc-provider";
import { Alert, Button, Field, Input } from "./ui";

export function ChangePasswordForm({ firstSignIn, pageError }: { firstSignIn: boolean; pageError?: string }) {
  const trpc = useTRPC();
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation(trpc.auth.changePassword.mutationOptions({ onSuccess: () => window.location.assign("/") }));
  const errors = formErrors(change.error, ["current", "next"], change.isIdle && !mismatch ? pageError : null);

  return (
    <form
      method="post"
      action="/api/forms/change-password"
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const next = String(data.get("next") ?? "");
        if (next !== String(data.get("repeat") ?? "")) return setMismatch(true);
        setMismatch(false);
        change.mutate({ current: String(data.get("current") ?? ""), next });
      }}
    >
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <Field
        label={firstSignIn ? "One-time password" : "Current password"}
        htmlFor="current"
        error={errors.field.current}
        hint={firstSignIn ? "The password you just signed in with." : undefined}
      >
        <Input id="current" name="current" type="password" autoComplete="current-password" required autoFocus invalid={!!errors.field.current} />
      </Field>
      <Field label="New password" htmlFor="next" error={errors.field.next} hint="At least 12 characters.">
        <Input id="next" name="next" type="password" autoComplete="new-password" required invalid={!!errors.field.next} />
      </Field>
      <Field label="Repeat the new password" htmlFor="repeat" error={mismatch ? "The two new passwords differ." : null}>
        <Input id="repeat" name="repeat" type="password" autoComplete="new-password" required invalid={mismatch} />
      </Field>
      <Button type="submit" className="w-full" disabled={change.isPending || change.isSuccess}>
        {change.isPending || change.isSuccess ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
