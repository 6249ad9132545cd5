import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth-card";
import { NewProjectForm } from "@/components/new-project-form";
import { pageCaller, requireUser } from "@/server/page-session";

export const metadata: Metadata = { title: "New project" };

export default async function NewProjectPage() {
  await requireUser();
  const projects = await (await pageCaller()).projects.list();
  return (
    <AuthCard
      wide
      title={projects.length ? "New project" : "Create your first project"}
      description={
        projects.length
          ? "A project has its own tool calls, members and API keys."
          : "You are not a member of any project yet. Create one, or ask an owner of theirs for an invitation link."
      }
    >
      <NewProjectForm />
      {projects.length > 0 && (
        <p className="mt-5 text-center">
          <Link href="/" className="text-indigo-700 hover:underline">
            Cancel
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
