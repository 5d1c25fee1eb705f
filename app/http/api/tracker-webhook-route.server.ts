import { receiveTrackerWebhook } from "~/domain/trackers/webhook.server";
import { apiRoute, endpoint } from "./api.server";
import { readBodyText } from "./body.server";
import { trackerWebhooks } from "./contracts/trackers";
import { jsonResponse } from "./respond.server";

/**
 * The route of one tracker's webhook (docs/trackers.md). The raw body is read as sent: it is what the signature covers.
 * 200 when it changed a linked issue, and for a repeat or a too-old delivery (acknowledged, not applied: the service must not retry it); 202 otherwise.
 */
export function trackerWebhookRoute(service: keyof typeof trackerWebhooks) {
  return apiRoute(
    endpoint(trackerWebhooks[service], async ({ params, request, headers }) => {
      const raw = await readBodyText(request, 2 * 1024 * 1024);
      const result = await receiveTrackerWebhook(service, params.connectionId, raw, request.headers);
      return jsonResponse(result, result.updated || result.ignored ? 200 : 202, headers);
    }),
  );
}
