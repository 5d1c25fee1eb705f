import { config } from "~/config.server";
import { ProviderHttpError, providerFetch } from "../integrations/http.server";
import { tokenSet } from "../integrations/providers/token-set";
import type { TokenSet } from "../integrations/providers/types";
import { TRACKER_INFO, type TrackerService } from "./adapter";

/**
 * How each issue tracker is connected with OAuth 2 (docs/trackers.md,
 * "Connecting with OAuth"): the operator's client (unset = tokens only), the
 * authorization URL, the code exchange and the refresh. The flow around it
 * (state, callback, storage, refresh before use) is in oauth.server.ts and
 * oauth-tokens.server.ts; the HTTP and token parsing are the export
 * integrations' (providerFetch, tokenSet).
 */

export interface TrackerOAuthSettings {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  /** Jira: Atlassian's API gateway (accessible-resources, /ex/jira/{cloudId}); from configuration only. */
  apiUrl: string;
}

/** What a code exchange gives: the tokens and the connection's non-secret settings (Jira: the site). */
export type TrackerGrant = TokenSet & { settings: Record<string, string> };

export interface TrackerOAuthClient {
  /** The variables the server's operator sets. */
  env: { clientId: string; clientSecret: string };
  scopes: string[];
  settings(): TrackerOAuthSettings | null;
  authorizationUrl(s: TrackerOAuthSettings, p: { redirectUri: string; state: string }): string;
  exchangeCode(s: TrackerOAuthSettings, p: { code: string; redirectUri: string }): Promise<TrackerGrant>;
  refresh(s: TrackerOAuthSettings, refreshToken: string): Promise<TokenSet>;
}

/** A token endpoint's refusal (RFC 6749 §5.2: `invalid_grant`…), whatever status it came with: GitHub answers 200. */
export class TokenRefused extends Error {
  constructor(
    readonly service: TrackerService,
    readonly code: string,
    description: string | null,
  ) {
    super(`${TRACKER_INFO[service].name} refused: ${code}${description ? ` (${description})` : ""}`);
    this.name = "TokenRefused";
  }
}

/** The Atlassian account gave this app no Jira Cloud site. */
export class NoJiraSite extends Error {}

export const JIRA_SCOPES = ["read:jira-work", "write:jira-work", "read:jira-user", "offline_access"];

const trim = (url: string) => url.replace(/\/+$/, "");

function settingsOf(id: string | undefined, secret: string | undefined, urls: Omit<TrackerOAuthSettings, "clientId" | "clientSecret">) {
  if (!id?.trim() || !secret?.trim()) return null;
  return { clientId: id.trim(), clientSecret: secret.trim(), ...urls };
}

function withQuery(base: string, params: Record<string, string>) {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** One token request (form or JSON body); an OAuth error answer becomes TokenRefused. */
async function tokenRequest(service: TrackerService, url: string, fields: Record<string, string>, as: "form" | "json"): Promise<TokenSet> {
  const name = TRACKER_INFO[service].name;
  let answer: any;
  try {
    answer = await providerFetch(name, url, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": as === "json" ? "application/json" : "application/x-www-form-urlencoded" },
      body: as === "json" ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    });
  } catch (error) {
    if (error instanceof ProviderHttpError && error.oauthError && error.status >= 400 && error.status < 500 && error.status !== 429) {
      throw new TokenRefused(service, error.oauthError, describe(error.body));
    }
    throw error;
  }
  if (typeof answer?.error === "string") throw new TokenRefused(service, answer.error, describe(answer));
  return tokenSet(name, answer);
}

const describe = (body: unknown) => {
  const d = (body as { error_description?: unknown } | null)?.error_description;
  return typeof d === "string" ? d.slice(0, 200) : null;
};

/** The site's https origin as Atlassian reports it, for links only (requests go to JIRA_API_URL). */
function siteOrigin(raw: unknown): string | null {
  try {
    const url = new URL(String(raw));
    return url.protocol === "https:" && !url.username && !url.password ? url.origin : null;
  } catch {
    return null;
  }
}

/** The first Jira site the token was granted, from /oauth/token/accessible-resources. */
async function jiraSite(s: TrackerOAuthSettings, accessToken: string): Promise<Record<string, string>> {
  const resources = await providerFetch("Jira", `${s.apiUrl}/oauth/token/accessible-resources`, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
  });
  const sites = (Array.isArray(resources) ? resources : []) as { id?: unknown; url?: unknown; name?: unknown; scopes?: unknown }[];
  for (const site of sites) {
    const scopes = Array.isArray(site.scopes) ? site.scopes.map(String) : [];
    const siteUrl = siteOrigin(site.url);
    if (typeof site.id !== "string" || !/^[\w-]{1,100}$/.test(site.id) || !siteUrl || !scopes.some((x) => x.includes("jira"))) continue;
    return { cloudId: site.id, siteUrl, siteName: typeof site.name === "string" ? site.name.slice(0, 200) : siteUrl };
  }
  throw new NoJiraSite();
}

export const TRACKER_OAUTH: Record<TrackerService, TrackerOAuthClient> = {
  github: {
    env: { clientId: "GITHUB_CLIENT_ID", clientSecret: "GITHUB_CLIENT_SECRET" },
    scopes: ["repo"],
    settings() {
      const c = config();
      const base = trim(c.GITHUB_OAUTH_URL);
      return settingsOf(c.GITHUB_CLIENT_ID, c.GITHUB_CLIENT_SECRET, {
        authUrl: `${base}/login/oauth/authorize`,
        tokenUrl: `${base}/login/oauth/access_token`,
        apiUrl: trim(c.GITHUB_API_URL),
      });
    },
    authorizationUrl: (s, { redirectUri, state }) =>
      withQuery(s.authUrl, { client_id: s.clientId, redirect_uri: redirectUri, scope: "repo", state, allow_signup: "false" }),
    async exchangeCode(s, { code, redirectUri }) {
      const t = await tokenRequest("github", s.tokenUrl, { client_id: s.clientId, client_secret: s.clientSecret, code, redirect_uri: redirectUri }, "form");
      return { ...t, settings: {} };
    },
    refresh: (s, refreshToken) =>
      tokenRequest(
        "github",
        s.tokenUrl,
        { client_id: s.clientId, client_secret: s.clientSecret, grant_type: "refresh_token", refresh_token: refreshToken },
        "form",
      ),
  },
  linear: {
    env: { clientId: "LINEAR_CLIENT_ID", clientSecret: "LINEAR_CLIENT_SECRET" },
    scopes: ["read", "write"],
    settings() {
      const c = config();
      return settingsOf(c.LINEAR_CLIENT_ID, c.LINEAR_CLIENT_SECRET, { authUrl: c.LINEAR_AUTH_URL, tokenUrl: c.LINEAR_TOKEN_URL, apiUrl: c.LINEAR_API_URL });
    },
    authorizationUrl: (s, { redirectUri, state }) =>
      withQuery(s.authUrl, { client_id: s.clientId, redirect_uri: redirectUri, response_type: "code", scope: "read,write", state, prompt: "consent" }),
    async exchangeCode(s, { code, redirectUri }) {
      const fields = { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: s.clientId, client_secret: s.clientSecret };
      return { ...(await tokenRequest("linear", s.tokenUrl, fields, "form")), settings: {} };
    },
    refresh: (s, refreshToken) =>
      tokenRequest(
        "linear",
        s.tokenUrl,
        { grant_type: "refresh_token", refresh_token: refreshToken, client_id: s.clientId, client_secret: s.clientSecret },
        "form",
      ),
  },
  jira: {
    env: { clientId: "JIRA_CLIENT_ID", clientSecret: "JIRA_CLIENT_SECRET" },
    scopes: JIRA_SCOPES,
    settings() {
      const c = config();
      return settingsOf(c.JIRA_CLIENT_ID, c.JIRA_CLIENT_SECRET, { authUrl: c.JIRA_AUTH_URL, tokenUrl: c.JIRA_TOKEN_URL, apiUrl: trim(c.JIRA_API_URL) });
    },
    authorizationUrl: (s, { redirectUri, state }) =>
      withQuery(s.authUrl, {
        audience: "api.atlassian.com",
        client_id: s.clientId,
        scope: JIRA_SCOPES.join(" "),
        redirect_uri: redirectUri,
        state,
        response_type: "code",
        prompt: "consent",
      }),
    async exchangeCode(s, { code, redirectUri }) {
      const fields = { grant_type: "authorization_code", client_id: s.clientId, client_secret: s.clientSecret, code, redirect_uri: redirectUri };
      const t = await tokenRequest("jira", s.tokenUrl, fields, "json");
      return { ...t, settings: await jiraSite(s, t.accessToken) };
    },
    refresh: (s, refreshToken) =>
      tokenRequest(
        "jira",
        s.tokenUrl,
        { grant_type: "refresh_token", client_id: s.clientId, client_secret: s.clientSecret, refresh_token: refreshToken },
        "json",
      ),
  },
};

/** The services whose OAuth client this server has, in the order of TRACKER_OAUTH. */
export const oauthServices = () => (Object.keys(TRACKER_OAUTH) as TrackerService[]).filter((s) => TRACKER_OAUTH[s].settings() !== null);

/** Origins of the configured consent pages: a form post on the settings page redirects there (CSP form-action). */
export const trackerConsentOrigins = () => oauthServices().map((s) => new URL(TRACKER_OAUTH[s].settings()!.authUrl).origin);
