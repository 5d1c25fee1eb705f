import type { Actor } from "~/domain/actor";
import { unauthorized } from "~/domain/errors";
import { LIVE_STREAM_BUFFER_BYTES } from "~/domain/live/limits.server";
import { subscribeLive } from "~/domain/live/live.server";
import { projectAccess } from "~/domain/projects/access.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import { authenticate } from "~/http/api/authenticate.server";
import * as c from "~/http/api/contracts/live";
import { SSE_HEADERS, sseResponse } from "~/http/api/sse.server";

const route = apiRoute(
  endpoint(c.liveStream, async ({ actor, params, query, request, context }) => {
    // A HEAD asks whether the stream is there; it must not subscribe (its body is never read).
    if (request.method === "HEAD") {
      await projectAccess(actor, params.projectId);
      return new Response(null, { status: 200, headers: SSE_HEADERS });
    }
    // While the stream is open, the caller's session or key and access are checked again every minute.
    const recheck = async (): Promise<Actor> => {
      const { actor: now } = await authenticate(request, context);
      if (!now) throw unauthorized();
      return now;
    };
    const subscription = await subscribeLive(actor, params.projectId, { clientId: query.clientId, recheck });
    // A reader that does not keep up holds at most this much of its events here; the rest wait, bounded, in its subscription.
    return sseResponse(request, (signal) => subscription.events(signal), {
      queuedBytes: LIVE_STREAM_BUFFER_BYTES,
      signal: subscription.ended,
    });
  }),
);
export const loader = route.loader;
export const action = route.action;
