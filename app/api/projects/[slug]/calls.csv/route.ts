import { callsFilterInput } from "@/contracts/metrics";
import { describeIssues, issueLine } from "@/contracts/issues";
import { streamCallsCsv } from "@/server/services/calls/call-list";
import { takeProjectShare } from "@/server/services/tenancy/shares";
import { errorResponse } from "@/server/trpc/init";
import { projectForRequest } from "@/server/http-access";

export const dynamic = "force-dynamic";

/**
 * CSV export of the calls explorer's filtered list (same filters as its URL), streamed with
 * backpressure; a client that goes away or stops reading cancels it (server/services/calls/call-list.ts).
 */
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const search = Object.fromEntries(new URL(req.url).searchParams);
  try {
    const project = await projectForRequest(req, slug);
    const filter = callsFilterInput.safeParse({ ...search, disagree: search.disagree === "1" ? true : undefined });
    if (!filter.success) {
      return Response.json({ error: `Invalid filter: ${describeIssues(filter.error).map(issueLine).join("; ")}` }, { status: 400 });
    }
    const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
    // the project's share is held until the stream ends, not only until it starts
    const done = await takeProjectShare(project, "CSV export");
    const csv = await streamCallsCsv(project.id, filter.data, { onEnd: done }).catch((error: unknown) => {
      done();
      throw error;
    });
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="toolgate-${project.slug}-calls-${stamp}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse(error, "calls.csv");
  }
}
