// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { createIncomingSchema, INCOMING_ACTIONS, updateIncomingSchema } from "~/domain/incoming/incoming.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Incoming webhooks";

const endpointShape = z.object({
  id: z.string(),
  name: z.string(),
  action: z.enum(INCOMING_ACTIONS),
  config: z.object({ projectId: z.string().nullable() }),
  isActive: z.boolean(),
  tokenPrefix: z.string(),
  lastEventAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
});
const withSecret = endpointShape.extend({ token: z.string(), url: z.string() });
const idParams = z.object({ id: z.string() });

export const listIncomingWebhooks = contract({
  method: "GET",
  path: "/api/admin/incoming-webhooks",
  tag,
  summary: "List the organization's incoming webhook endpoints",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ incomingWebhooks: z.array(endpointShape) }),
});

export const createIncomingWebhook = contract({
  method: "POST",
  path: "/api/admin/incoming-webhooks",
  tag,
  summary: "Create an incoming webhook endpoint",
  description:
    "Actions: `create_project` (payload `name`/`title`, `description`/`text`), `add_comment` (needs `config.projectId`; payload `text`/`body`/`message`), `notify_members` (payload `title`, `text`). Actions run as the creating admin. The response carries `token` and the full `url` once; only a hash is stored (rotate with PATCH `rotateToken: true`).",
  auth: "user",
  roles: ADMIN_ROLES,
  body: createIncomingSchema,
  successStatus: 201,
  response: z.object({ incomingWebhook: withSecret }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const updateIncomingWebhook = contract({
  method: "PATCH",
  path: "/api/admin/incoming-webhooks/{id}",
  tag,
  summary: "Rename, enable/disable, reconfigure or rotate the token of an incoming webhook",
  description: "With `rotateToken: true` the response carries the new `token` and `url`; the old URL stops working.",
  auth: "user",
  roles: ADMIN_ROLES,
  params: idParams,
  body: updateIncomingSchema,
  response: z.object({ incomingWebhook: endpointShape.extend({ token: z.string().optional(), url: z.string().optional() }) }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const deleteIncomingWebhook = contract({
  method: "DELETE",
  path: "/api/admin/incoming-webhooks/{id}",
  tag,
  summary: "Delete an incoming webhook and its event log",
  auth: "user",
  roles: ADMIN_ROLES,
  params: idParams,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const listIncomingEvents = contract({
  method: "GET",
  path: "/api/admin/incoming-webhooks/{id}/events",
  tag,
  summary: "The last 50 events received by an incoming webhook, newest first",
  auth: "user",
  roles: ADMIN_ROLES,
  params: idParams,
  response: z.object({
    events: z.array(
      z.object({
        id: z.string(),
        contentType: z.string(),
        status: z.enum(["processed", "failed", "ignored"]),
        error: z.string().nullable(),
        result: z.record(z.string(), z.unknown()).nullable(),
        payload: z.string(),
        createdAt: z.string(),
      }),
    ),
  }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

const tokenParams = z.object({ token: z.string() });

export const receiveIncoming = contract({
  method: "POST",
  path: "/api/webhooks/incoming/{token}",
  tag,
  summary: "Send an event to an incoming webhook",
  description:
    'Public; the token in the path authenticates. JSON object or form-urlencoded body, at most 1 MB (413 PAYLOAD_TOO_LARGE, checked while reading). Every request that reaches an active endpoint is stored. `{type: "url_verification", challenge}` is answered with `{challenge}`. Otherwise `200 {received: true, eventId, status}` where `status` is `processed` or `failed` (the action\'s error is in `error`). Unknown or disabled token: 404. 120 requests per minute per token (429 RATE_LIMITED).',
  auth: "public",
  crossSite: true,
  params: tokenParams,
  response: z.union([
    z.object({ received: z.literal(true), eventId: z.string(), status: z.enum(["processed", "failed"]), error: z.string().nullable() }),
    z.object({ challenge: z.string() }),
  ]),
  errors: ["NOT_FOUND", "INVALID_JSON", "VALIDATION_ERROR", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "RATE_LIMITED"],
});

export const verifyIncoming = contract({
  method: "GET",
  path: "/api/webhooks/incoming/{token}",
  tag,
  summary: "Verification handshake: echoes `challenge` as text/plain",
  auth: "public",
  params: tokenParams,
  query: z.object({ challenge: z.string({ error: "challenge is required" }).min(1, "challenge is required").max(1000) }),
  responseType: "text/plain",
  errors: ["NOT_FOUND", "VALIDATION_ERROR", "RATE_LIMITED"],
});
