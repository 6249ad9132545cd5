import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth-card";
import { pageError } from "@/components/form-errors";
import { LoginForm } from "@/components/login-form";
import { safeNextPath } from "@/isomorphic/next-path";
import { sessionState } from "@/server/page-session";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; error?: string | string[] }> }) {
  const { next, error } = await searchParams;
  const target = safeNextPath(typeof next === "string" ? next : undefined);
  const { user, needsSetup } = await sessionState();
  if (needsSetup) redirect("/setup");
  if (user) redirect(target);
  return (
    <AuthCard title="Sign in to Toolgate">
      <LoginForm next={target} pageError={pageError(error)} />
      <p className="mt-5 text-xs text-slate-500">No account yet? Ask an owner of your project for an invitation link.</p>
    </AuthCard>
  );
}
