"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ShownOnce } from "../shown-once";
import { formErrors } from "../form-errors";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { useTRPC } from "../trpc-provider";
import { API_KEY_SCOPES, type ApiKeyScope } from "../../contracts/accounts";
import { Alert, Badge, Button, Card, Field, Select, Table, td, th } from "../ui";
import { ConfirmButton } from "../confirm-button";
import { CountedInput } from "../counted-input";
import { TEXT_LIMITS } from "../../contracts/text-limits";

export function ApiKeysPanel({ slug, zone }: { slug: string; zone: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions({ project: slug }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey({ project: slug }) });
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>("ingest");
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);

  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (result) => {
        setCreated({ name: result.name, key: result.key });
        setName("");
        return invalidate();
      },
    }),
  );
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSettled: invalidate,
    }),
  );
  const errors = formErrors(create.error, ["name"]);

  return (
    <div className="space-y-6">
      <Card
        title="Create an API key"
        description={
          <>
            Harnesses send tool calls with <code className="font-mono text-xs text-slate-700">Authorization: Bearer &lt;key&gt;</code>. Use one key per harness,
            so that you can revoke one alone.
          </>
        }
      >
        {created && (
          <ShownOnce
            id="new-api-key"
            value={created.key}
            footer={
              <div className="mt-3">
                <Button variant="secondary" size="sm" onClick={() => setCreated(null)}>
                  I have copied it
                </Button>
              </div>
            }
          >
            <p className="font-medium text-amber-900">New key “{created.name}”: copy it now, it will not be shown again.</p>
            <p className="mt-1 text-amber-900">Toolgate keeps only a hash. If you lose the key, revoke it and create another.</p>
          </ShownOnce>
        )}
        <form
          className="flex flex-wrap items-start gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setCreated(null);
            create.mutate({ project: slug, name, scope });
          }}
        >
          {errors.form && (
            <Alert tone="error" className="basis-full">
              {errors.form}
            </Alert>
          )}
          <div className="min-w-64 flex-1">
            <Field label="Name" htmlFor="key-name" error={errors.field.name} hint="The harness or environment that will use it, e.g. “support-bot production”.">
              <CountedInput
                max={TEXT_LIMITS.apiKeyName}
                id="key-name"
                autoComplete="off"
                required
                value={name}
                onChange={(e) => setName(e.target.value)}
                invalid={!!errors.field.name}
              />
            </Field>
          </div>
          <div className="w-56">
            <Field
              label="Scope"
              htmlFor="key-scope"
              hint={scope === "read" ? "Reads figures (CI gates); cannot send events." : "Sends events and tool schemas; cannot read."}
            >
              <Select id="key-scope" value={scope} onChange={(e) => setScope(e.target.value as ApiKeyScope)}>
                {API_KEY_SCOPES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className="pt-[1.625rem]">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create key"}
            </Button>
          </div>
        </form>
      </Card>

      <Card title="API keys" description="Revoking a key stops it at once: harnesses still using it get 401.">
        {revoke.error && (
          <Alert tone="error" className="mb-4">
            {revoke.error.message}
          </Alert>
        )}
        {keys.isPending ? (
          <p className="text-slate-500">Loading keys…</p>
        ) : keys.error ? (
          <Alert tone="error">{keys.error.message}</Alert>
        ) : keys.data.length === 0 ? (
          <p className="text-slate-500">No API keys yet.</p>
        ) : (
          <Table label="API keys">
            <thead>
              <tr>
                <th className={th}>Key</th>
                <th className={th}>Name</th>
                <th className={th}>Scope</th>
                <th className={th}>Created</th>
                <th className={th}>Last used</th>
                <th className={th}>Status</th>
                <th className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {keys.data.map((k) => (
                <tr key={k.id} data-testid="api-key-row" className={k.revokedAt ? "text-slate-500" : undefined}>
                  <td className={`${td} font-mono text-xs`}>tg_{k.prefix}_…</td>
                  <td className={`${td} max-w-64 truncate font-medium text-slate-900`} title={k.name}>
                    {k.name}
                  </td>
                  <td className={td}>
                    <Badge tone={k.scope === "read" ? "indigo" : "slate"}>{k.scope}</Badge>
                  </td>
                  <td data-label="Created" className={`${td} text-slate-500`}>
                    {formatDateTimeZoned(k.createdAt, zone)}
                  </td>
                  <td data-label="Last used" className={`${td} text-slate-500`}>
                    {k.lastUsedAt ? formatDateTimeZoned(k.lastUsedAt, zone) : "never"}
                  </td>
                  <td className={td}>
                    {k.revokedAt ? <Badge tone="red">revoked {formatDateTimeZoned(k.revokedAt, zone)}</Badge> : <Badge tone="green">active</Badge>}
                  </td>
                  <td className={`${td} text-right`}>
                    {k.revokedAt ? null : (
                      <ConfirmButton
                        label={`Revoke ${k.name}`}
                        question="Revoke this key?"
                        pending={revoke.isPending}
                        pendingText="Revoking…"
                        onConfirm={(close) => revoke.mutate({ project: slug, keyId: k.id }, { onSuccess: close })}
                      >
                        Revoke
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </div>
  );
}
