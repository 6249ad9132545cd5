import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth-card";
import { pageError } from "@/components/form-errors";
import { formatDateTimeZoned } from "@/isomorphic/time-zone";
import { AcceptInvitationForm, JoinWithNewAccountForm } from "@/components/invitation-forms";
import { pageCaller, pageTimeZone, sessionState } from "@/server/page-session";

// same-origin: the link's secret never goes to another site as a Referer, while the page's own form posts keep their Origin (no-referrer would send "Origin: null", which app/api/forms refuses)
export const metadata: Metadata = { title: "Invitation", referrer: "same-origin" };

/** An invitation link (`/invite/<token>`): whoever holds it joins, signed in or with a new account. */
export default async function InvitationPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const { token } = await params;
  const { error } = await searchParams;
  const invitation = await (await pageCaller()).members.invitation({ token }).catch((e: Error) => e);
  if (invitation instanceof Error) {
    return (
      <AuthCard title="This invitation cannot be used">
        <p className="text-slate-700">{invitation.message}</p>
      </AuthCard>
    );
  }
  const { user } = await sessionState();
  const signedInWithOwnPassword = user && !user.mustChangePassword;
  return (
    <AuthCard
      title={`Join ${invitation.project.name}`}
      description={
        <>
          You are invited as <span className="font-medium text-slate-700">{invitation.role}</span> (the invitation names {invitation.email}). The link works
          until {formatDateTimeZoned(invitation.expiresAt, (await pageTimeZone()).zone)}, once.
        </>
      }
    >
      {signedInWithOwnPassword ? (
        <AcceptInvitationForm token={token} email={user.email} pageError={pageError(error)} />
      ) : (
        <>
          <JoinWithNewAccountForm token={token} invitedEmail={invitation.email} pageError={pageError(error)} />
          <p className="mt-5 text-xs text-slate-500">
            Have an account already?{" "}
            <Link href={`/login?next=${encodeURIComponent(`/invite/${token}`)}`} className="text-indigo-700 hover:underline">
              Sign in
            </Link>{" "}
            and you come back here to join with it.
          </p>
        </>
      )}
    </AuthCard>
  );
}
