// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { createWebhookSchema, updateWebhookSchema } from "~/domain/webhooks/webhooks.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Webhooks";

const webhookShape = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  signatureHeaderName: z.string(),
  secretHint: z.string().describe("First and last characters of the signing secret; the secret itself is shown only on create"),
  consecutiveFailures: z.number(),
  disabledReason: z.string().nullable().describe("Set when the webhook was switched off after repeated failed deliveries"),
  lastDeliveryAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const deliveryShape = z.object({
  id: z.string().describe("Also sent as the x-webhook-id header; stable across retries"),
  webhookId: z.string(),
  event: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});

const params = z.object({ webhookId: z.string() });

const about =
  "Deliveries POST `{event, timestamp, data}` as JSON with the headers <signatureHeaderName> (hex HMAC-SHA256 of the raw body with the secret), `x-webhook-event`, `x-webhook-id` (delivery id, stable across retries) and `x-webhook-timestamp`. A non-2xx answer or a 10 s timeout is retried with exponential backoff (30 s, 1, 2, 4, 8 min), 6 attempts in all. After 10 failed deliveries in a row the webhook is switched off and admins are notified. Private, loopback and reserved targets are refused unless the server sets ALLOW_PRIVATE_WEBHOOK_TARGETS=true.";

export const listWebhooks = contract({
  method: "GET",
  path: "/api/admin/webhooks",
  tag,
  summary: "List the organization's outgoing webhooks",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ webhooks: z.array(webhookShape) }),
  errors: ["FORBIDDEN"],
});

export const createWebhook = contract({
  method: "POST",
  path: "/api/admin/webhooks",
  tag,
  summary: "Create an outgoing webhook",
  description: `\`events\` lists catalogue names, groups such as \`project.*\`, or \`*\`; an unknown name is a 400 with \`details[].path\` \`events.N\`. Without \`secret\` one is generated; the response carries \`secret\` once. Counts against the plan's webhooks limit (Free 0, Starter 2, Pro 10, Enterprise unlimited). ${about}`,
  auth: "user",
  roles: ADMIN_ROLES,
  body: createWebhookSchema,
  successStatus: 201,
  response: z.object({ webhook: webhookShape.extend({ secret: z.string() }) }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "LIMIT_REACHED"],
});

export const getWebhook = contract({
  method: "GET",
  path: "/api/admin/webhooks/{webhookId}",
  tag,
  summary: "Get a webhook",
  auth: "user",
  roles: ADMIN_ROLES,
  params,
  response: z.object({ webhook: webhookShape }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const updateWebhook = contract({
  method: "PATCH",
  path: "/api/admin/webhooks/{webhookId}",
  tag,
  summary: "Update a webhook",
  description:
    "Any subset of the create fields. A new `secret` replaces the old one (it is not echoed). Setting `isActive: true` resets `consecutiveFailures` and clears `disabledReason`.",
  auth: "user",
  roles: ADMIN_ROLES,
  params,
  body: updateWebhookSchema,
  response: z.object({ webhook: webhookShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const deleteWebhook = contract({
  method: "DELETE",
  path: "/api/admin/webhooks/{webhookId}",
  tag,
  summary: "Delete a webhook and its delivery log",
  auth: "user",
  roles: ADMIN_ROLES,
  params,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const testWebhook = contract({
  method: "POST",
  path: "/api/admin/webhooks/{webhookId}/test",
  tag,
  summary: "Queue a webhook.test delivery to this webhook only",
  description: "Answers 202 with the pending delivery; follow it in the delivery log. Works on a switched-off webhook too.",
  auth: "user",
  roles: ADMIN_ROLES,
  params,
  successStatus: 202,
  response: z.object({ delivery: deliveryShape }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const listWebhookDeliveries = contract({
  method: "GET",
  path: "/api/admin/webhooks/{webhookId}/deliveries",
  tag,
  summary: "The webhook's last 50 deliveries, newest first",
  auth: "user",
  roles: ADMIN_ROLES,
  params,
  response: z.object({ deliveries: z.array(deliveryShape) }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});
