import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { createApiKeySchema } from "~/domain/api-keys/api-keys.schema";
import { API_KEY_SCOPES } from "~/domain/api-keys/scopes";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "API keys";

const scopesShape = z
  .array(z.enum(API_KEY_SCOPES))
  .describe('The key\'s scopes, implied ones included (`["read", "write"]` for a write key). Keys made before scopes existed hold all three.');

const keyShape = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  rateLimit: z.number().nullable(),
  scopes: scopesShape,
  createdBy: z.object({ id: z.string(), name: z.string().nullable() }),
});

export const listApiKeys = contract({
  method: "GET",
  path: "/api/admin/rest-api-keys",
  tag,
  summary: "List the organization's active API keys",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ apiKeys: z.array(keyShape) }),
});

export const createApiKey = contract({
  method: "POST",
  path: "/api/admin/rest-api-keys",
  tag,
  summary: "Create an API key",
  description:
    "Returns the key (`svc_` + 40 hex) once; only its hash is stored. Counts against the plan's api_keys limit (Free 0, Starter 2, Pro 10, Enterprise unlimited). `rateLimit` (requests per minute) is Enterprise only; the default is 60. `scopes` (`read`, `write`, `admin`) limit what the key may do within its creator's role; omitted, the key has the creator's full access. Called with an API key, this needs the `admin` scope, and the new key cannot have a scope the calling key lacks (403 FORBIDDEN).",
  auth: "user",
  roles: ADMIN_ROLES,
  scope: "admin",
  body: createApiKeySchema,
  successStatus: 201,
  response: z.object({
    apiKey: z.object({
      id: z.string(),
      name: z.string(),
      key: z.string(),
      prefix: z.string(),
      expiresAt: z.string().nullable(),
      createdAt: z.string(),
      rateLimit: z.number().nullable(),
      scopes: scopesShape,
    }),
  }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "LIMIT_REACHED", "PLAN_UPGRADE_REQUIRED"],
});

export const revokeApiKey = contract({
  method: "DELETE",
  path: "/api/admin/rest-api-keys/{keyId}",
  tag,
  summary: "Revoke an API key",
  auth: "user",
  roles: ADMIN_ROLES,
  scope: "admin",
  params: z.object({ keyId: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});
