"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formErrors } from "./form-errors";
import { NewPasswordFields } from "./new-password-fields";
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
      <NewPasswordFields name="next" label="New password" error={errors.field.next} mismatch={mismatch} />
      <Button type="submit" className="w-full" disabled={change.isPending || change.isSuccess}>
        {change.isPending || change.isSuccess ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
