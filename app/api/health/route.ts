import { pool } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** Liveness plus a database round trip: 503 with database "down" when it cannot be reached. */
export async function GET() {
  try {
    await pool().query("SELECT 1");
    return Response.json({ status: "ok", database: "up" });
  } catch {
    return Response.json({ status: "degraded", database: "down" }, { status: 503 });
  }
}
