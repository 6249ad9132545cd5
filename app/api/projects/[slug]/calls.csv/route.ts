import { TRPCError } from "@trpc/server";
import { callsFilterInput } from "@/contracts/metrics";
import { describeIssues, issueLine } from "@/contracts/issues";
import { streamCallsCsv } from "@/server/services/calls/call-list";
import { createContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

/** CSV export of the calls explorer's filtered list (same filters as its URL), streamed. */
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  let project;
  try {
    // tenancy through the procedure kind, as for every other read
    project = await createCaller(createContext({ headers: req.headers, url: req.url })).projects.get({ project: slug });
  } catch (error) {
    const code = error instanceof TRPCError ? error.code : "INTERNAL_SERVER_ERROR";
    const status = code === "UNAUTHORIZED" ? 401 : code === "FORBIDDEN" || code === "BAD_REQUEST" ? 403 : 500;
    return Response.json({ error: error instanceof TRPCError ? error.message : "Internal server error" }, { status });
  }
  const search = Object.fromEntries(new URL(req.url).searchParams);
  const filter = callsFilterInput.safeParse({ ...search, disagree: search.disagree === "1" ? true : undefined });
  if (!filter.success) {
    return Response.json({ error: `Invalid filter: ${describeIssues(filter.error).map(issueLine).join("; ")}` }, { status: 400 });
  }
  const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
  return new Response(await streamCallsCsv(project.id, filter.data), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="toolgate-${project.slug}-calls-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
