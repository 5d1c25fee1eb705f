import { config } from "~/config.server";
import { AppError } from "../errors";
import { type IntegrationProvider, PROVIDER_INFO, providerEnvNames } from "./providers";

/** One provider's OAuth client and endpoints, from configuration. */
export interface ProviderSettings {
  provider: IntegrationProvider;
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  /** Base URL of the service's API, without a trailing slash. */
  apiUrl: string;
}

const trim = (url: string) => url.replace(/\/+$/, "");

/** The provider's settings, or null when its client id/secret are not set ("not configured"). */
export function providerSettings(provider: IntegrationProvider): ProviderSettings | null {
  const c = config();
  const pick = {
    notes: [c.NOTES_CLIENT_ID, c.NOTES_CLIENT_SECRET, c.NOTES_AUTH_URL, c.NOTES_TOKEN_URL, c.NOTES_API_URL],
    wiki: [c.WIKI_CLIENT_ID, c.WIKI_CLIENT_SECRET, c.WIKI_AUTH_URL, c.WIKI_TOKEN_URL, c.WIKI_API_URL],
    docs: [c.DOCS_CLIENT_ID, c.DOCS_CLIENT_SECRET, c.DOCS_AUTH_URL, c.DOCS_TOKEN_URL, c.DOCS_API_URL],
  }[provider];
  const [clientId, clientSecret, authUrl, tokenUrl, apiUrl] = pick;
  if (!clientId?.trim() || !clientSecret?.trim()) return null;
  return { provider, clientId: clientId.trim(), clientSecret: clientSecret.trim(), authUrl: authUrl!, tokenUrl: tokenUrl!, apiUrl: trim(apiUrl!) };
}

/** 409 CONFLICT naming the variables to set, for operations that need the OAuth client. */
export function requireSettings(provider: IntegrationProvider): ProviderSettings {
  const settings = providerSettings(provider);
  if (settings) return settings;
  const env = providerEnvNames(provider);
  throw new AppError(
    "CONFLICT",
    409,
    `The ${PROVIDER_INFO[provider].service} integration is not configured on this server: an administrator must set ${env.clientId} and ${env.clientSecret}`,
  );
}
