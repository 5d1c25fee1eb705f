import { isPrimary, primaryInstance } from "~/db.server";

/**
 * The answer to a write that reached a LiteFS replica: Fly's proxy sees the
 * `fly-replay` header and sends the same request to the primary machine. The
 * LiteFS proxy normally does this before the app sees the request; this is
 * the fallback for writes that got past it (and for GETs that write).
 */
export function replayToPrimary(): Response {
  const instance = primaryInstance();
  return new Response(null, {
    status: 409,
    headers: { "fly-replay": instance ? `instance=${instance}` : "elsewhere=true", "Cache-Control": "no-store" },
  });
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a page request must be replayed: any form post on a replica. */
export function mustReplay(request: Request): boolean {
  return !SAFE.has(request.method) && !isPrimary();
}
