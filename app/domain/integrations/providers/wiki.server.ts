import { AppError } from "../../errors";
import { ProviderHttpError, providerFetch } from "../http.server";
import type { ProviderSettings } from "../settings.server";
import type { Authorized, OAuthClient } from "./types";
import { tokenSet } from "./token-set";

/**
 * `wiki` = Confluence Cloud through Atlassian OAuth 2.0 (3LO). Authorize at
 * WIKI_AUTH_URL with audience api.atlassian.com; the token endpoint takes the
 * client credentials in its JSON body, returns expiring access tokens and
 * rotating refresh tokens (offline_access). The site (cloud id, name) comes
 * from /oauth/token/accessible-resources; pages are created with the REST
 * content API under /ex/confluence/{cloudId}/wiki/rest/api.
 */
const SERVICE = "Confluence";
export const WIKI_SCOPES = ["write:confluence-content", "read:confluence-space.summary", "read:confluence-content.summary", "offline_access"];

const tokens = (body: any) => tokenSet(SERVICE, body);

const post = (url: string, body: unknown) =>
  providerFetch(SERVICE, url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });

/** Thrown when the account has no Confluence site: the callback reports `no_site`. */
export class NoSiteError extends Error {}

export const wikiOAuth: OAuthClient = {
  service: SERVICE,
  usesPkce: false,
  authorizationUrl(s, { redirectUri, state }) {
    const url = new URL(s.authUrl);
    url.search = new URLSearchParams({
      audience: "api.atlassian.com",
      client_id: s.clientId,
      scope: WIKI_SCOPES.join(" "),
      redirect_uri: redirectUri,
      state,
      response_type: "code",
      prompt: "consent",
    }).toString();
    return url.toString();
  },
  async exchangeCode(s, { code, redirectUri }) {
    const set = tokens(
      await post(s.tokenUrl, { grant_type: "authorization_code", client_id: s.clientId, client_secret: s.clientSecret, code, redirect_uri: redirectUri }),
    );
    const resources = await providerFetch(SERVICE, `${s.apiUrl}/oauth/token/accessible-resources`, {
      headers: { Authorization: `Bearer ${set.accessToken}`, Accept: "application/json" },
    });
    const sites = Array.isArray(resources) ? resources : [];
    const site = sites.find((r: any) => Array.isArray(r?.scopes) && r.scopes.some((x: string) => x.includes("confluence"))) ?? sites[0];
    if (!site?.id) throw new NoSiteError();
    return { ...set, workspaceId: String(site.id), workspaceName: String(site.name ?? site.url ?? "Confluence site"), accountEmail: null };
  },
  async refresh(s, refreshToken) {
    return tokens(await post(s.tokenUrl, { grant_type: "refresh_token", client_id: s.clientId, client_secret: s.clientSecret, refresh_token: refreshToken }));
  },
};

const base = (s: ProviderSettings, cloudId: string) => `${s.apiUrl}/ex/confluence/${encodeURIComponent(cloudId)}/wiki/rest/api`;
const headers = (token: string) => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" });

/**
 * The space key to publish into: `spaceId` may be a key (`ENG`) or a numeric
 * space id (looked up); without one, the first space the account can see.
 */
export async function resolveSpaceKey(s: ProviderSettings, call: Authorized, cloudId: string, spaceId: string | undefined): Promise<string> {
  if (spaceId && !/^\d+$/.test(spaceId)) return spaceId;
  const query = spaceId ? `spaceId=${encodeURIComponent(spaceId)}&limit=1` : "limit=1";
  const body = await call((token) => providerFetch(SERVICE, `${base(s, cloudId)}/space?${query}`, { headers: headers(token) }));
  const key = Array.isArray(body?.results) ? body.results[0]?.key : undefined;
  if (typeof key !== "string") {
    throw spaceId
      ? new AppError("VALIDATION_ERROR", 400, `Confluence has no space with id ${spaceId} that you can see`, {
          details: [{ path: "spaceId", message: "Unknown space" }],
        })
      : new AppError("VALIDATION_ERROR", 400, "Your Confluence site has no space you can publish to; pass spaceId", {
          details: [{ path: "spaceId", message: "No space found" }],
        });
  }
  return key;
}

const duplicateTitle = (e: unknown) => e instanceof ProviderHttpError && e.status === 400 && /already exists/i.test(e.message);

/** Creates the page; a title already used in the space gets the export time appended once. */
export async function createWikiPage(
  s: ProviderSettings,
  call: Authorized,
  cloudId: string,
  page: { title: string; spaceKey: string; parentId?: string; storage: string },
): Promise<{ pageId: string; pageUrl: string }> {
  const create = (title: string) =>
    call((token) =>
      providerFetch(SERVICE, `${base(s, cloudId)}/content`, {
        method: "POST",
        headers: headers(token),
        body: JSON.stringify({
          type: "page",
          title,
          space: { key: page.spaceKey },
          ...(page.parentId ? { ancestors: [{ id: page.parentId }] } : {}),
          body: { storage: { value: page.storage, representation: "storage" } },
        }),
      }),
    );
  let created: any;
  try {
    created = await create(page.title);
  } catch (error) {
    if (!duplicateTitle(error)) throw error;
    const stamp = new Date().toISOString().slice(0, 16).replace("T", " ");
    created = await create(`${page.title.slice(0, 230)} (${stamp} UTC)`);
  }
  const pageId = String(created.id);
  const links = created._links ?? {};
  const pageUrl = typeof links.base === "string" && typeof links.webui === "string" ? `${links.base}${links.webui}` : `${links.self ?? ""}`;
  return { pageId, pageUrl };
}
