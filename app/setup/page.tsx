import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth-card";
import { SetupForm } from "@/components/setup-form";
import { sessionState } from "@/server/page-session";

export const metadata: Metadata = { title: "Set up" };

/** First run only: the first admin and project. Once anyone exists, sign in instead. */
export default async function SetupPage() {
  const { needsSetup } = await sessionState();
  if (!needsSetup) redirect("/login");
  return (
    <AuthCard wide title="Welcome to Toolgate" description="Create the first admin account and a project for your harnesses to send tool calls to.">
      <SetupForm />
    </AuthCard>
  );
}
