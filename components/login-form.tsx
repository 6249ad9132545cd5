"use client";

import { useMutation } from "@tanstack/react-query";
import { formErrors } from "./form-errors";
import { useTRPC } from "./trpc-provider";
import { Alert, Button, Field, Input } from "./ui";

export function LoginForm({ next, pageError }: { next: string; pageError?: string }) {
  const trpc = useTRPC();
  // a full page load: nothing cached from before the sign-in survives
  const signIn = useMutation(trpc.auth.signIn.mutationOptions({ onSuccess: () => window.location.assign(next) }));
  const errors = formErrors(signIn.error, ["email", "password"], signIn.isIdle ? pageError : null);

  return (
    <form
      method="post"
      action="/api/forms/sign-in"
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        signIn.mutate({ email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") });
      }}
    >
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <input type="hidden" name="next" value={next} />
      <Field label="Email" htmlFor="email" error={errors.field.email}>
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus invalid={!!errors.field.email} />
      </Field>
      <Field label="Password" htmlFor="password" error={errors.field.password}>
        <Input id="password" name="password" type="password" autoComplete="current-password" required invalid={!!errors.field.password} />
      </Field>
      <Button type="submit" className="w-full" disabled={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending || signIn.isSuccess ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
