import { AppError } from "~/domain/errors";
import { INCOMING_MAX_BYTES, INCOMING_RATE_PER_MINUTE } from "~/domain/incoming/incoming.schema";
import { findActiveEndpoint, receiveIncomingEvent, recordRefusedEvent } from "~/domain/incoming/receive.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import { readBodyText } from "~/http/api/body.server";
import * as c from "~/http/api/contracts/incoming";
import { assertAllowed, RateLimiter, rateHeaders } from "~/utils/rate-limiter.server";

/** Per token, in this process (see docs/flags-and-feedback.md). */
const limiter = new RateLimiter();

function hit(token: string, headers: Headers) {
  const rate = limiter.hit(`incoming:${token}`, INCOMING_RATE_PER_MINUTE);
  for (const [k, v] of Object.entries(rateHeaders(rate))) headers.set(k, v);
  assertAllowed(rate, "requests to this webhook");
}

const route = apiRoute(
  endpoint(c.receiveIncoming, async ({ params, request, headers }) => {
    hit(params.token, headers);
    const target = await findActiveEndpoint(params.token);
    const contentType = request.headers.get("Content-Type") ?? "";
    let raw: string;
    try {
      raw = await readBodyText(request, INCOMING_MAX_BYTES);
    } catch (error) {
      if (error instanceof AppError) await recordRefusedEvent(target, contentType, error.message);
      throw error;
    }
    const result = await receiveIncomingEvent(target, raw, contentType);
    if (result.kind === "challenge") return { challenge: result.challenge };
    return { received: true, eventId: result.eventId, status: result.status, error: result.error };
  }),
  endpoint(c.verifyIncoming, async ({ params, query, headers }) => {
    hit(params.token, headers);
    await findActiveEndpoint(params.token);
    headers.set("Content-Type", "text/plain; charset=utf-8");
    headers.set("Cache-Control", "no-store");
    return new Response(query.challenge, { status: 200, headers });
  }),
);
export const loader = route.loader;
export const action = route.action;
