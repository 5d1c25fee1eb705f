// POST /api/admin/webhooks/{webhookId}/test. The trailing "_" keeps the file name clear of the
// `**/*.test.*` ignore pattern for route files; Remix drops it from the URL.
import { sendTestDelivery } from "~/domain/webhooks/webhooks.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/webhooks";

const route = apiRoute(endpoint(c.testWebhook, async ({ actor, params }) => ({ delivery: await sendTestDelivery(actor, params.webhookId) })));
export const loader = route.loader;
export const action = route.action;
