import { handleStripeEvent, verifyStripeEvent } from "~/domain/billing/webhook.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import { readBodyText } from "~/http/api/body.server";
import * as c from "~/http/api/contracts/billing";

const route = apiRoute(
  endpoint(c.stripeWebhook, async ({ request }) => {
    // The signature covers the exact bytes sent: verify the raw text, never re-serialized JSON.
    const raw = await readBodyText(request);
    const event = await verifyStripeEvent(raw, request.headers.get("Stripe-Signature"));
    const result = await handleStripeEvent(event);
    return { received: true, duplicate: result.status === "duplicate", status: result.status };
  }),
);
export const loader = route.loader;
export const action = route.action;
