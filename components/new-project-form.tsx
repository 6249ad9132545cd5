"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { formErrors } from "./form-errors";
import { ProjectNameFields } from "./slug-fields";
import { useTRPC } from "./trpc-provider";
import { Alert, Button } from "./ui";

export function NewProjectForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.projects.create.mutationOptions({ onSuccess: (project) => router.push(`/p/${project.slug}`) }));
  const errors = formErrors(create.error, ["name", "slug"]);

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        create.mutate({ name: String(data.get("name") ?? ""), slug: String(data.get("slug") ?? "") });
      }}
    >
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <ProjectNameFields errors={errors.field} />
      <Button type="submit" className="w-full" disabled={create.isPending || create.isSuccess}>
        {create.isPending || create.isSuccess ? "Creating…" : "Create project"}
      </Button>
    </form>
  );
}
