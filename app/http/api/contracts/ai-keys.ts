import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { addProviderKeySchema } from "~/domain/ai-keys/ai-keys.schema";
import { CONNECTION_FAILURES, PROVIDER_IDS } from "~/ai/types";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "AI provider keys";

const keyShape = z.object({
  id: z.string(),
  provider: z.enum(PROVIDER_IDS),
  name: z.string().nullable(),
  key: z.string().describe("The masked key, e.g. `sk-…a1b2`; the key itself is never returned"),
  maskedKey: z.string(),
  scope: z.enum(["user", "organization"]),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
const created = z.object({ id: z.string(), provider: z.enum(PROVIDER_IDS), name: z.string().nullable(), createdAt: z.string() });
export const connectionShape = z
  .union([
    z.object({
      ok: z.literal(true),
      provider: z.enum(PROVIDER_IDS),
      model: z.string().describe("The model the provider is configured with"),
      latencyMs: z.number(),
      detail: z.string().describe('e.g. "model gpt-4o-mini is available (12 models listed)"'),
    }),
    z.object({
      ok: z.literal(false),
      provider: z.enum(PROVIDER_IDS),
      reason: z.enum(CONNECTION_FAILURES),
      message: z.string().describe("Plain-language explanation; never contains the key"),
    }),
  ])
  .describe("The outcome of one free call to the provider (OpenAI-compatible and Anthropic: list models; Gemini: count tokens)");
const testDescription =
  " One free call through the provider's SDK (10 s timeout, no retries) to the provider's configured base URL. A failed test is still 200, with `ok: false` and a `reason`: unauthorized, not_found, unreachable, rate_limited or error.";
const resolution =
  " Key order for every AI request: the caller's personal key, then the organization's key, then the platform key from the server's environment, then the built-in offline drafter.";

export const listPersonalKeys = contract({
  method: "GET",
  path: "/api/user/api-keys",
  tag,
  summary: "Your personal AI provider keys (masked)",
  description: `provider_a = OpenAI, provider_b = Anthropic, provider_c = Google Gemini.${resolution}`,
  auth: "user",
  response: z.object({ apiKeys: z.array(keyShape) }),
});

export const addPersonalKey = contract({
  method: "POST",
  path: "/api/user/api-keys",
  tag,
  summary: "Add a personal AI provider key (BYOK)",
  description:
    "One key per provider: adding one replaces your previous key for that provider. The key is encrypted (AES-256-GCM) before it is stored and is never returned. The response has the key's fields at the top level (as the spec shows) and the same object under `apiKey`.",
  auth: "user",
  body: addProviderKeySchema,
  successStatus: 201,
  response: created.extend({ apiKey: created, connection: connectionShape.optional().describe("Present when the body had `verify: true`") }),
  errors: ["VALIDATION_ERROR"],
});

export const deletePersonalKey = contract({
  method: "DELETE",
  path: "/api/user/api-keys/{keyId}",
  tag,
  summary: "Delete a personal AI provider key",
  auth: "user",
  params: z.object({ keyId: z.string() }),
  response: success,
  errors: ["NOT_FOUND"],
});

export const listOrgKeys = contract({
  method: "GET",
  path: "/api/organization/ai-keys",
  tag,
  summary: "The organization's AI provider keys (masked)",
  description: `Used by every member who has no personal key for the provider.${resolution}`,
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ apiKeys: z.array(keyShape) }),
});

export const addOrgKey = contract({
  method: "POST",
  path: "/api/organization/ai-keys",
  tag,
  summary: "Add an organization AI provider key",
  description: "Owners and admins. One key per provider (replaces the previous one); encrypted at rest, never returned. Audited.",
  auth: "user",
  roles: ADMIN_ROLES,
  body: addProviderKeySchema,
  successStatus: 201,
  response: created.extend({ apiKey: created, connection: connectionShape.optional().describe("Present when the body had `verify: true`") }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const deleteOrgKey = contract({
  method: "DELETE",
  path: "/api/organization/ai-keys/{keyId}",
  tag,
  summary: "Delete an organization AI provider key",
  auth: "user",
  roles: ADMIN_ROLES,
  params: z.object({ keyId: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const testPersonalKey = contract({
  method: "POST",
  path: "/api/user/api-keys/{keyId}/test",
  tag,
  summary: "Test a personal AI provider key",
  description: `Asks the provider whether it accepts the key.${testDescription}`,
  auth: "user",
  rateLimit: "ai",
  params: z.object({ keyId: z.string() }),
  response: connectionShape,
  errors: ["NOT_FOUND", "RATE_LIMITED"],
});

export const testOrgKey = contract({
  method: "POST",
  path: "/api/organization/ai-keys/{keyId}/test",
  tag,
  summary: "Test an organization AI provider key",
  description: `Owners and admins.${testDescription}`,
  auth: "user",
  roles: ADMIN_ROLES,
  rateLimit: "ai",
  params: z.object({ keyId: z.string() }),
  response: connectionShape,
  errors: ["FORBIDDEN", "NOT_FOUND", "RATE_LIMITED"],
});

export const testPlatformProvider = contract({
  method: "POST",
  path: "/api/organization/ai-keys/platform/{provider}/test",
  tag,
  summary: "Test the server's own provider (environment key or base URL)",
  description: `Owners and admins. Tests what \`OPENAI_*\`, \`ANTHROPIC_*\` or \`GOOGLE_*\` configure, e.g. a local OpenAI-compatible server (Ollama, llama.cpp) set with only \`OPENAI_BASE_URL\`. 404 when the environment configures nothing for the provider.${testDescription}`,
  auth: "user",
  roles: ADMIN_ROLES,
  rateLimit: "ai",
  params: z.object({ provider: z.enum(PROVIDER_IDS, { error: `provider must be one of ${PROVIDER_IDS.join(", ")}` }) }),
  response: connectionShape,
  errors: ["FORBIDDEN", "NOT_FOUND", "RATE_LIMITED"],
});
