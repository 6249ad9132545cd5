"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ROLE_DESCRIPTIONS, type Role } from "@/contracts/roles";
import { RETENTION_DEFAULTS } from "@/contracts/accounts";
import { formErrors } from "../form-errors";
import { useTRPC } from "../trpc-provider";
import { Alert, Badge, Button, Card, Field, Input } from "../ui";
import { CountedInput } from "../counted-input";
import { TEXT_LIMITS } from "../../contracts/text-limits";

type Project = { slug: string; name: string };

export function RenameProject({ project, canRename }: { project: Project; canRename: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [name, setName] = useState(project.name);
  const rename = useMutation(trpc.projects.rename.mutationOptions({ onSuccess: () => router.refresh() }));
  const errors = formErrors(rename.error, ["name"]);

  return (
    <Card title="Project" description={canRename ? "The name shows in the project switcher and on every page." : undefined}>
      <form
        className="max-w-md space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          rename.mutate({ project: project.slug, name });
        }}
      >
        {errors.form && <Alert tone="error">{errors.form}</Alert>}
        {rename.isSuccess && !rename.isPending && <Alert tone="success">Saved.</Alert>}
        <Field label="Name" htmlFor="project-name" error={errors.field.name} hint={canRename ? undefined : "Admins and owners can rename the project."}>
          <CountedInput
            max={TEXT_LIMITS.projectName}
            id="project-name"
            value={name}
            readOnly={!canRename}
            disabled={!canRename}
            onChange={(e) => {
              setName(e.target.value);
              rename.reset();
            }}
            invalid={!!errors.field.name}
          />
        </Field>
        <Field label="Slug" htmlFor="project-slug" hint="Part of every URL and API call; it cannot be changed.">
          <Input id="project-slug" value={project.slug} readOnly disabled />
        </Field>
        {canRename && (
          <Button type="submit" disabled={rename.isPending || name.trim() === project.name}>
            {rename.isPending ? "Saving…" : "Save name"}
          </Button>
        )}
      </form>
    </Card>
  );
}

export function Retention({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const current = useQuery(trpc.projects.retention.queryOptions({ project: slug }));
  if (!current.data)
    return <Card title="Retention">{current.error ? <Alert tone="error">{current.error.message}</Alert> : <p className="text-slate-500">Loading…</p>}</Card>;
  return <RetentionForm slug={slug} canEdit={canEdit} initial={current.data} />;
}

function RetentionForm({ slug, canEdit, initial }: { slug: string; canEdit: boolean; initial: { callsDays: number; rollupsDays: number } }) {
  const trpc = useTRPC();
  const [callsDays, setCallsDays] = useState(String(initial.callsDays));
  const [rollupsDays, setRollupsDays] = useState(String(initial.rollupsDays));
  const save = useMutation(trpc.projects.setRetention.mutationOptions());
  const errors = formErrors(save.error, ["callsDays", "rollupsDays"]);
  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    save.reset();
  };
  return (
    <Card
      title="Retention"
      description="An hourly sweep deletes raw calls and rollups older than this. Charts of older ranges keep working from the rollups after the raw calls are gone."
    >
      <form
        className="max-w-md space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ project: slug, callsDays: Number(callsDays), rollupsDays: Number(rollupsDays) });
        }}
      >
        {errors.form && <Alert tone="error">{errors.form}</Alert>}
        {save.isSuccess && !save.isPending && <Alert tone="success">Saved. The next sweep applies it.</Alert>}
        <Field
          label="Keep raw calls (days)"
          htmlFor="retention-calls"
          error={errors.field.callsDays}
          hint={canEdit ? `Default ${RETENTION_DEFAULTS.callsDays}.` : "Admins and owners can change retention."}
        >
          <Input
            id="retention-calls"
            inputMode="numeric"
            value={callsDays}
            disabled={!canEdit}
            onChange={edit(setCallsDays)}
            invalid={!!errors.field.callsDays}
          />
        </Field>
        <Field
          label="Keep rollups (days)"
          htmlFor="retention-rollups"
          error={errors.field.rollupsDays}
          hint={`Hourly and daily counts behind the charts. Default ${RETENTION_DEFAULTS.rollupsDays}.`}
        >
          <Input
            id="retention-rollups"
            inputMode="numeric"
            value={rollupsDays}
            disabled={!canEdit}
            onChange={edit(setRollupsDays)}
            invalid={!!errors.field.rollupsDays}
          />
        </Field>
        {canEdit && (
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save retention"}
          </Button>
        )}
      </form>
    </Card>
  );
}

export function YourRole({ role }: { role: Role }) {
  return (
    <Card title="Your role">
      <p className="text-slate-700">
        <Badge tone="indigo">{role}</Badge> <span className="ml-1">{ROLE_DESCRIPTIONS[role]}.</span>
      </p>
    </Card>
  );
}

export function DeleteProject({ project }: { project: Project }) {
  const trpc = useTRPC();
  const [typed, setTyped] = useState("");
  const remove = useMutation(trpc.projects.delete.mutationOptions({ onSuccess: () => window.location.assign("/") }));
  const confirmed = typed === project.slug;

  return (
    <Card tone="danger" title="Delete project" description="Deletes the project with all its tool calls, tools, members and API keys. This cannot be undone.">
      <form
        className="max-w-md space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (confirmed) remove.mutate({ project: project.slug });
        }}
      >
        {remove.error && <Alert tone="error">{remove.error.message}</Alert>}
        <Field
          label={
            <>
              Type <code className="rounded bg-slate-100 px-1 font-mono text-red-700">{project.slug}</code> to confirm
            </>
          }
          htmlFor="delete-confirm"
        >
          <Input id="delete-confirm" autoComplete="off" spellCheck={false} value={typed} onChange={(e) => setTyped(e.target.value)} />
        </Field>
        <Button type="submit" variant="danger" disabled={!confirmed || remove.isPending || remove.isSuccess}>
          {remove.isPending || remove.isSuccess ? "Deleting…" : "Delete this project"}
        </Button>
      </form>
    </Card>
  );
}
