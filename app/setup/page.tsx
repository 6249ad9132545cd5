import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth-card";
import { pageError } from "@/components/form-errors";
import { SetupForm } from "@/components/setup-form";
import { sessionState } from "@/server/page-session";

export const metadata: Metadata = { title: "Set up" };

/** First run only: the first admin and project. Once anyone exists, sign in instead. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const { error } = await searchParams;
  const { needsSetup } = await sessionState();
  if (!needsSetup) redirect("/login");
  return (
    <AuthCard wide title="Welcome to Toolgate" description="Create the first admin account and a project for your harnesses to send tool calls to.">
      <SetupForm pageError={pageError(error)} />
    </AuthCard>
  );
}
