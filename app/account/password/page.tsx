import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth-card";
import { ChangePasswordForm } from "@/components/change-password-form";
import { pageError } from "@/components/form-errors";
import { requireSession } from "@/server/page-session";

export const metadata: Metadata = { title: "Choose a password" };

export default async function ChangePasswordPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const { error } = await searchParams;
  const user = await requireSession();
  return (
    <AuthCard
      title={user.mustChangePassword ? "Choose your password" : "Change your password"}
      description={
        user.mustChangePassword ? (
          <>
            You signed in as <span className="font-medium text-slate-700">{user.email}</span> with a one-time password. Choose your own before you continue.
          </>
        ) : (
          <>
            Signed in as <span className="font-medium text-slate-700">{user.email}</span>.
          </>
        )
      }
    >
      <ChangePasswordForm firstSignIn={user.mustChangePassword} pageError={pageError(error)} />
      {!user.mustChangePassword && (
        <p className="mt-5 text-center">
          <Link href="/" className="text-indigo-700 hover:underline">
            Back to Toolgate
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
