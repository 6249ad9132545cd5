import type { ZodError } from "zod";
import { joinPath } from "./json-path";

/** `events[3].timestamp`-style paths for zod issues, under an optional root path. */
export function describeIssues(error: ZodError, root = ""): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.reduce<string>((path, key) => joinPath(path, typeof key === "number" ? key : String(key)), root),
    message: issue.message,
  }));
}

export const issueLine = ({ path, message }: { path: string; message: string }) => (path ? `${path}: ${message}` : message);
