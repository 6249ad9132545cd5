import { NotFoundInProject } from "@/components/not-found-in-project";

/** A missing call, run, tool or incident of a project: 404, inside the project's frame. */
export default function ProjectNotFound() {
  return <NotFoundInProject />;
}
