"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ROLE_DESCRIPTIONS, ROLES, type Role } from "@/contracts/roles";
import { CopyButton } from "../copy-button";
import { formatDateTime, formErrors } from "../form-errors";
import { useTRPC } from "../trpc-provider";
import { Alert, Badge, Button, Card, Field, Input, Select, Table, td, th } from "../ui";

type Added = { email: string; role: Role; oneTimePassword: string | null };

export function MembersPanel({ slug, canManage, currentUserId }: { slug: string; canManage: boolean; currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const members = useQuery(trpc.members.list.queryOptions({ project: slug }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey({ project: slug }) });
  const [rowError, setRowError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const changeRole = useMutation(
    trpc.members.changeRole.mutationOptions({
      onMutate: () => setRowError(null),
      onError: (e) => setRowError(e.message),
      onSuccess: (_data, input) => (input.userId === currentUserId ? router.refresh() : undefined),
      onSettled: invalidate,
    }),
  );
  const remove = useMutation(
    trpc.members.remove.mutationOptions({
      onMutate: () => setRowError(null),
      onError: (e) => setRowError(e.message),
      onSuccess: (_data, input) => (input.userId === currentUserId ? window.location.assign("/") : setConfirming(null)),
      onSettled: invalidate,
    }),
  );

  return (
    <div className="space-y-6">
      {canManage && <AddMember slug={slug} onAdded={invalidate} />}
      <Card title="Members" description="Everyone who can see this project, and what they may do.">
        {rowError && (
          <Alert tone="error" className="mb-4">
            {rowError}
          </Alert>
        )}
        {members.isPending ? (
          <p className="text-slate-500">Loading members…</p>
        ) : members.error ? (
          <Alert tone="error">{members.error.message}</Alert>
        ) : (
          <Table label="Members">
            <thead>
              <tr>
                <th className={th}>Member</th>
                <th className={th}>Role</th>
                <th className={th}>Since</th>
                {canManage && (
                  <th className={th}>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {members.data.map((m) => (
                <tr key={m.id} data-testid="member-row">
                  <td className={td}>
                    <div className="flex items-center gap-2">
                      <span className="font-medium text-slate-900">{m.email}</span>
                      {m.id === currentUserId && <Badge>you</Badge>}
                      {m.invitePending && <Badge tone="amber">invite pending</Badge>}
                    </div>
                    {m.name && <div className="text-xs text-slate-500">{m.name}</div>}
                  </td>
                  <td className={td}>
                    {canManage ? (
                      <>
                        <label htmlFor={`role-${m.id}`} className="sr-only">
                          Role of {m.email}
                        </label>
                        <Select
                          id={`role-${m.id}`}
                          className="w-32 py-1"
                          value={m.role}
                          disabled={changeRole.isPending}
                          onChange={(e) => changeRole.mutate({ project: slug, userId: m.id, role: e.target.value as Role })}
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </Select>
                      </>
                    ) : (
                      <Badge tone={m.role === "owner" ? "indigo" : "slate"}>{m.role}</Badge>
                    )}
                  </td>
                  <td className={`${td} text-slate-500`}>{formatDateTime(m.since)}</td>
                  {canManage && (
                    <td className={`${td} text-right`}>
                      {confirming === m.id ? (
                        <span className="inline-flex items-center gap-2">
                          <span className="text-slate-600">{m.id === currentUserId ? "Leave this project?" : "Remove from project?"}</span>
                          <Button
                            variant="danger"
                            size="sm"
                            disabled={remove.isPending}
                            aria-label={`Confirm removing ${m.email}`}
                            onClick={() => remove.mutate({ project: slug, userId: m.id })}
                          >
                            {remove.isPending ? "Removing…" : "Remove"}
                          </Button>
                          <Button variant="secondary" size="sm" onClick={() => setConfirming(null)}>
                            Cancel
                          </Button>
                        </span>
                      ) : (
                        <Button variant="dangerSubtle" size="sm" onClick={() => setConfirming(m.id)} aria-label={`Remove ${m.email}`}>
                          Remove
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <Card title="Roles">
        <dl className="grid grid-cols-[6rem_1fr] gap-x-4 gap-y-2">
          {ROLES.map((r) => (
            <div key={r} className="contents">
              <dt className="font-medium text-slate-800">{r}</dt>
              <dd className="text-slate-600">{ROLE_DESCRIPTIONS[r]}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </div>
  );
}

function AddMember({ slug, onAdded }: { slug: string; onAdded: () => unknown }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [added, setAdded] = useState<Added | null>(null);
  const add = useMutation(
    trpc.members.add.mutationOptions({
      onSuccess: (result) => {
        setAdded({ email: result.email, role: result.role, oneTimePassword: result.oneTimePassword });
        setEmail("");
        return onAdded();
      },
    }),
  );
  const errors = formErrors(add.error, ["email", "role"]);

  return (
    <Card title="Add a member" description="People without an account get one, with a one-time password for their first sign-in.">
      {added && (
        <div className="mb-5">
          {added.oneTimePassword ? (
            <div className="rounded-md border border-amber-300 bg-amber-50 p-4" role="status">
              <p className="font-medium text-amber-900">
                Added {added.email} as {added.role}.
              </p>
              <p className="mt-1 text-amber-900">Share this one-time password; they will choose their own at first sign-in.</p>
              <div className="mt-3 flex items-center gap-2">
                <code
                  id="one-time-password"
                  data-testid="one-time-password"
                  className="select-all rounded bg-white px-3 py-1.5 font-mono text-base text-slate-900 ring-1 ring-amber-200"
                >
                  {added.oneTimePassword}
                </code>
                <CopyButton value={added.oneTimePassword} selectId="one-time-password" />
              </div>
              <p className="mt-2 text-xs text-amber-800">It is shown only now.</p>
            </div>
          ) : (
            <Alert tone="success">
              Added {added.email} as {added.role}. They already have an account and can sign in with their own password.
            </Alert>
          )}
        </div>
      )}
      <form
        className="flex flex-wrap items-start gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setAdded(null);
          add.mutate({ project: slug, email, role });
        }}
      >
        {errors.form && (
          <Alert tone="error" className="basis-full">
            {errors.form}
          </Alert>
        )}
        <div className="min-w-64 flex-1">
          <Field label="Email" htmlFor="member-email" error={errors.field.email}>
            <Input
              id="member-email"
              type="email"
              autoComplete="off"
              required
              placeholder="colleague@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              invalid={!!errors.field.email}
            />
          </Field>
        </div>
        <div className="w-40">
          <Field label="Role" htmlFor="member-role" error={errors.field.role}>
            <Select id="member-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <div className="pt-[1.625rem]">
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add member"}
          </Button>
        </div>
      </form>
      <p className="mt-2 text-xs text-slate-500">
        A {role} {ROLE_DESCRIPTIONS[role]}.
      </p>
    </Card>
  );
}
