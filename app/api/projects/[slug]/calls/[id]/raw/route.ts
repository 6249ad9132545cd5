import { decodeParam, idCandidates } from "@/isomorphic/route-id";
import { rawCallJson } from "@/server/services/calls/call-detail";
import { errorResponse } from "@/server/http/error-response";
import { projectForRequest } from "@/server/http/project-access";

export const dynamic = "force-dynamic";

/** One call as stored, as a JSON download: what the call page shows cut when it is large or deep. */
export async function GET(req: Request, { params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  try {
    const project = await projectForRequest(req, slug);
    // ids are the harness's and may hold any character: tried as given, then percent-decoded (as the call page does)
    for (const candidate of idCandidates(id)) {
      const json = await rawCallJson(project.id, candidate);
      if (json === null) continue;
      const file = `toolgate-${project.slug}-call-${candidate.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100)}.json`;
      return new Response(json, {
        headers: { "Content-Type": "application/json; charset=utf-8", "Content-Disposition": `attachment; filename="${file}"`, "Cache-Control": "no-store" },
      });
    }
    return Response.json({ error: `No call "${decodeParam(id)}" in project "${project.slug}": call ids must match exactly, including case.` }, { status: 404 });
  } catch (error) {
    return errorResponse(error, "calls/raw");
  }
}
