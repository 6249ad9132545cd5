"use client";

import { useMutation } from "@tanstack/react-query";
import { formErrors } from "./form-errors";
import { ProjectNameFields } from "./slug-fields";
import { useTRPC } from "./trpc-provider";
import { Alert, Button, Field, Input } from "./ui";
import { CountedInput } from "./counted-input";
import { TEXT_LIMITS } from "../contracts/text-limits";

export function SetupForm({ pageError }: { pageError?: string }) {
  const trpc = useTRPC();
  const setup = useMutation(trpc.auth.setup.mutationOptions({ onSuccess: ({ project }) => window.location.assign(`/p/${project}`) }));
  const errors = formErrors(setup.error, ["email", "password", "name", "projectName", "projectSlug"], setup.isIdle ? pageError : null);

  return (
    <form
      method="post"
      action="/api/forms/setup"
      className="space-y-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const text = (key: string) => String(data.get(key) ?? "");
        setup.mutate({
          email: text("email"),
          password: text("password"),
          name: text("name").trim() || undefined,
          projectName: text("projectName"),
          projectSlug: text("projectSlug"),
        });
      }}
    >
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <section aria-labelledby="setup-account" className="space-y-4">
        <h2 id="setup-account" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
          Your admin account
        </h2>
        <Field label="Email" htmlFor="email" error={errors.field.email}>
          <Input id="email" name="email" type="email" autoComplete="username" required autoFocus invalid={!!errors.field.email} />
        </Field>
        <Field label="Password" htmlFor="password" error={errors.field.password} hint="At least 12 characters.">
          <Input id="password" name="password" type="password" autoComplete="new-password" required invalid={!!errors.field.password} />
        </Field>
        <Field
          label={
            <>
              Name <span className="font-normal text-slate-500">(optional)</span>
            </>
          }
          htmlFor="name"
          error={errors.field.name}
        >
          <CountedInput max={TEXT_LIMITS.personName} id="name" name="name" autoComplete="name" invalid={!!errors.field.name} />
        </Field>
      </section>
      <section aria-labelledby="setup-project" className="space-y-4 border-t border-slate-100 pt-5">
        <h2 id="setup-project" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
          Your first project
        </h2>
        <ProjectNameFields errors={errors.field} idPrefix="setup" nameKey="projectName" slugKey="projectSlug" />
      </section>
      <Button type="submit" className="w-full" disabled={setup.isPending || setup.isSuccess}>
        {setup.isPending || setup.isSuccess ? "Setting up…" : "Create admin and project"}
      </Button>
    </form>
  );
}
