"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ROLE_DESCRIPTIONS, ROLES, type Role } from "@/contracts/roles";
import { ShownOnce } from "../shown-once";
import { formErrors } from "../form-errors";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { useTRPC } from "../trpc-provider";
import { Alert, Badge, Button, Card, Field, Input, Select, Table, td, th } from "../ui";
import { ConfirmButton } from "../confirm-button";

type Invited = { email: string; role: Role; path: string; expiresAt: string };

export function MembersPanel({ slug, canManage, currentUserId, zone }: { slug: string; canManage: boolean; currentUserId: string; zone: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const members = useQuery(trpc.members.list.queryOptions({ project: slug }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey({ project: slug }) });
  const [rowError, setRowError] = useState<string | null>(null);

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
      onSuccess: (_data, input) => (input.userId === currentUserId ? window.location.assign("/") : undefined),
      onSettled: invalidate,
    }),
  );

  return (
    <div className="space-y-6">
      {canManage && <InviteMember slug={slug} zone={zone} />}
      {canManage && <Invitations slug={slug} zone={zone} />}
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
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{m.email}</span>
                      {m.id === currentUserId && <Badge>you</Badge>}
                      {m.invitePending && <Badge tone="amber">invite pending</Badge>}
                    </div>
                    {m.name && <div className="text-xs text-slate-500">{m.name}</div>}
                  </td>
                  <td data-label={canManage ? undefined : "Role"} className={td}>
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
                  <td data-label="Since" className={`${td} text-slate-500`}>
                    {formatDateTimeZoned(m.since, zone)}
                  </td>
                  {canManage && (
                    <td className={`${td} text-right`}>
                      <ConfirmButton
                        label={`Remove ${m.email}`}
                        question={m.id === currentUserId ? "Leave this project?" : "Remove from project?"}
                        confirmLabel={`Confirm removing ${m.email}`}
                        pending={remove.isPending}
                        pendingText="Removing…"
                        onConfirm={(close) => remove.mutate({ project: slug, userId: m.id }, { onSuccess: close })}
                      >
                        Remove
                      </ConfirmButton>
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

function Invitations({ slug, zone }: { slug: string; zone: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invitations = useQuery(trpc.members.invitations.queryOptions({ project: slug }));
  const revoke = useMutation(
    trpc.members.revokeInvitation.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.members.invitations.queryKey({ project: slug }) }),
    }),
  );
  if (!invitations.data?.length) return null;
  return (
    <Card
      title="Pending invitations"
      description="Whoever opens the link you handed over joins when they accept it; an expired link opens nothing (invite again for a new one)."
    >
      {revoke.error && (
        <Alert tone="error" className="mb-4">
          {revoke.error.message}
        </Alert>
      )}
      <Table label="Pending invitations">
        <thead>
          <tr>
            <th className={th}>Email</th>
            <th className={th}>Role</th>
            <th className={th}>Invited</th>
            <th className={th}>Link expires</th>
            <th className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {invitations.data.map((i) => (
            <tr key={i.email} data-testid="invitation-row">
              <td className={td}>
                <span className="font-medium text-slate-900">{i.email}</span>
              </td>
              <td className={td}>{i.role}</td>
              <td data-label="Invited" className={`${td} text-slate-500`}>
                {formatDateTimeZoned(i.createdAt, zone)}
              </td>
              <td data-label="Link expires" className={`${td} text-slate-500`}>
                {i.expired ? <Badge tone="amber">expired</Badge> : formatDateTimeZoned(i.expiresAt, zone)}
              </td>
              <td className={`${td} text-right`}>
                <Button
                  variant="dangerSubtle"
                  size="sm"
                  disabled={revoke.isPending}
                  aria-label={`Revoke the invitation of ${i.email}`}
                  onClick={() => revoke.mutate({ project: slug, email: i.email })}
                >
                  Revoke
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}

function InviteMember({ slug, zone }: { slug: string; zone: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [invited, setInvited] = useState<Invited | null>(null);
  const add = useMutation(
    trpc.members.add.mutationOptions({
      onSuccess: (result) => {
        setInvited(result);
        setEmail("");
        return queryClient.invalidateQueries({ queryKey: trpc.members.invitations.queryKey({ project: slug }) });
      },
    }),
  );
  const errors = formErrors(add.error, ["email", "role"]);

  return (
    <Card title="Invite a member" description="You get a link to hand over; they join when they open it and accept.">
      {invited && (
        <ShownOnce
          id="invitation-link"
          value={new URL(invited.path, window.location.origin).href}
          footer={<p className="mt-2 text-xs text-amber-800">It is shown only now. Inviting {invited.email} again makes a new link and ends this one.</p>}
        >
          <p className="font-medium text-amber-900">
            Invited {invited.email} as {invited.role}: the link works until {formatDateTimeZoned(invited.expiresAt, zone)}.
          </p>
          <p className="mt-1 text-amber-900">
            Hand this link to them yourself (chat, in person). Whoever opens it can join: with the account they are signed in with, or a new one. Having an
            account with this address is not enough to join.
          </p>
        </ShownOnce>
      )}
      <form
        className="flex flex-wrap items-start gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setInvited(null);
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
            {add.isPending ? "Inviting…" : "Invite"}
          </Button>
        </div>
      </form>
      <p className="mt-2 text-xs text-slate-500">
        A {role} {ROLE_DESCRIPTIONS[role]}.
      </p>
    </Card>
  );
}
