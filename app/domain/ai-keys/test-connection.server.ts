import { checkConnection, endpointOf } from "~/ai/connection.server";
import { platformCredentials, platformSettings, providerCredentials } from "~/ai/credentials.server";
import { type ConnectionResult, PROVIDER_IDS, PROVIDER_SHORT, type ProviderId } from "~/ai/types";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { AppError } from "../errors";
import { storedKey } from "./ai-keys.server";

/**
 * "Test connection" for the keys AI requests use: a stored personal key, a
 * stored organization key (owners and admins), or the platform provider the
 * server's environment configures (owners and admins; how an operator checks
 * a local OpenAI-compatible server set up with only OPENAI_BASE_URL). One
 * free call through the provider's SDK; the answer says what happened and
 * never contains the key. A failed probe is a result (`ok: false`), not an error.
 */

export type ConnectionTarget = { kind: "personal"; keyId: string } | { kind: "organization"; keyId: string } | { kind: "platform"; provider: ProviderId };

const KEYS = "manage the organization's AI keys";

export async function testAiConnection(actor: Actor, target: ConnectionTarget): Promise<ConnectionResult> {
  const meta = { requestId: actor.requestId, source: target.kind };
  if (target.kind === "platform") {
    requireRole(actor, ADMIN_ROLES, "test the server's AI providers");
    const creds = platformCredentials(target.provider);
    if (!creds) {
      throw new AppError("NOT_FOUND", 404, `This server's environment configures no ${PROVIDER_SHORT[target.provider]} key or base URL`);
    }
    return checkConnection(creds, meta);
  }
  if (target.kind === "organization") requireRole(actor, ADMIN_ROLES, KEYS);
  const key = await storedKey(actor, target.kind === "personal" ? "user" : "organization", target.keyId);
  if (!key.apiKey) {
    return {
      ok: false,
      provider: key.provider,
      reason: "error",
      message: "This key can no longer be read (the server's encryption key changed). Remove it and add it again.",
    };
  }
  return checkConnection(providerCredentials(key.provider, key.apiKey), meta);
}

/** A platform provider as the settings page shows it: where it lives and which model, never its key. */
export interface PlatformProvider {
  provider: ProviderId;
  /** "Local server at localhost:11434", "Server at gateway.example.com", or "api.openai.com". */
  where: string;
  model: string;
  /** An API key is set (a local server may need none). */
  hasKey: boolean;
}

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0|host\.docker\.internal)$/i;

function describeWhere(provider: ProviderId, baseUrl: string | undefined) {
  const endpoint = endpointOf(provider, baseUrl);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return endpoint;
  }
  if (!baseUrl) return url.host;
  return LOCAL_HOST.test(url.hostname) ? `Local server at ${url.host}` : `Server at ${url.host}`;
}

/** The platform providers the environment configures (owners and admins). */
export function listPlatformProviders(actor: Actor): PlatformProvider[] {
  requireRole(actor, ADMIN_ROLES, "see the server's AI providers");
  return PROVIDER_IDS.filter((p) => platformCredentials(p)).map((provider) => {
    const s = platformSettings(provider);
    return { provider, where: describeWhere(provider, s.baseUrl), model: s.model, hasKey: Boolean(s.key?.trim()) };
  });
}
