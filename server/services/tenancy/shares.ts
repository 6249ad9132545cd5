// Each project's share of this instance: at most TOOLGATE_PROJECT_HEAVY_CONCURRENCY heavy
// operations (HEAVY_OPERATIONS) run at once per project, so that one project's flood holds at most that many of the
// pool's connections and the other projects do not wait for it. Beyond its share a request
// waits up to TOOLGATE_PROJECT_SHARE_WAIT_MS for a turn, then gets 429 with Retry-After.
//
// Counted in this process: with several instances behind a load balancer, a project's share
// is per instance (docs/limits.md). The rate limits (per key and per project) are the ones
// counted across instances, in PostgreSQL.
import { DomainError } from "../../domain/errors";
import { env } from "../../env";

/** Every kind of operation that takes a turn of the share (said in a refusal; docs/limits.md lists them too). */
const HEAVY_OPERATIONS =
  "ingest batches, OTLP exports, tools.register, tools.validate, dry runs, re-checks, metrics.summary, CSV exports, demo loads, alert previews, Evaluate now, project deletion";

/** What a refused request is told to wait before retrying. */
const RETRY_AFTER_SECONDS = 1;

type Share = { running: number; waiting: (() => void)[] };
const shares = new Map<string, Share>();

export type ProjectRef = { id: string; slug: string };

function release(projectId: string, share: Share) {
  const next = share.waiting.shift();
  if (next) return next(); // the turn passes straight to a waiting request: `running` stays
  share.running--;
  if (!share.running) shares.delete(projectId);
}

/** Waits for a turn of the project's share; resolves false when none came within `waitMs`. */
function acquire(share: Share, limit: number, waitMs: number): Promise<boolean> {
  if (share.running < limit) {
    share.running++;
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const turn = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      share.waiting.splice(share.waiting.indexOf(turn), 1);
      resolve(false);
    }, waitMs);
    share.waiting.push(turn);
  });
}

/**
 * Runs `work` within the project's share of heavy operations (`operation` names it in the
 * refusal). The turn is held until `work` settles; for a streamed answer, hold it with
 * `takeProjectShare` instead and release when the stream ends.
 */
export async function withProjectShare<T>(project: ProjectRef, operation: string, work: () => Promise<T>): Promise<T> {
  const done = await takeProjectShare(project, operation);
  try {
    return await work();
  } finally {
    done();
  }
}

/** Takes a turn of the project's share (429 DomainError when none comes in time); returns the function that gives it back (once). */
export async function takeProjectShare(project: ProjectRef, operation: string): Promise<() => void> {
  const { TOOLGATE_PROJECT_HEAVY_CONCURRENCY: limit, TOOLGATE_PROJECT_SHARE_WAIT_MS: waitMs } = env();
  let share = shares.get(project.id);
  if (!share) shares.set(project.id, (share = { running: 0, waiting: [] }));
  if (!(await acquire(share, limit, waitMs))) {
    if (!share.running && !share.waiting.length) shares.delete(project.id);
    throw new DomainError(
      "rate_limited",
      `Project "${project.slug}" already runs ${limit} heavy operations at once on this server (${HEAVY_OPERATIONS}), its share (TOOLGATE_PROJECT_HEAVY_CONCURRENCY); this ${operation} waited ${waitMs} ms for a turn. Retry after ${RETRY_AFTER_SECONDS} s, or send fewer requests at once.`,
      RETRY_AFTER_SECONDS,
    );
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release(project.id, share);
  };
}
