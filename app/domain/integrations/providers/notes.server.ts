import { providerFetch } from "../http.server";
import type { NotionBlock } from "../notes-blocks";
import type { ProviderSettings } from "../settings.server";
import { type Authorized, basicAuth, type OAuthClient } from "./types";
import { tokenSet } from "./token-set";

/**
 * `notes` = the Notion API. OAuth: authorize at NOTES_AUTH_URL, exchange at
 * NOTES_TOKEN_URL with HTTP Basic client authentication (JSON body), refresh
 * with grant_type refresh_token, revoke at /v1/oauth/revoke. Pages: POST
 * /v1/pages, more blocks with PATCH /v1/blocks/{id}/children.
 */
export const NOTION_VERSION = "2022-06-28";
const SERVICE = "Notion";

const oauthHeaders = (s: ProviderSettings) => ({
  Authorization: basicAuth(s),
  "Content-Type": "application/json",
  "Notion-Version": NOTION_VERSION,
});

const tokens = (body: any) => tokenSet(SERVICE, body, { scopes: false });

export const notesOAuth: OAuthClient = {
  service: SERVICE,
  usesPkce: false,
  authorizationUrl(s, { redirectUri, state }) {
    const url = new URL(s.authUrl);
    url.search = new URLSearchParams({ client_id: s.clientId, response_type: "code", owner: "user", redirect_uri: redirectUri, state }).toString();
    return url.toString();
  },
  async exchangeCode(s, { code, redirectUri }) {
    const body = await providerFetch(SERVICE, s.tokenUrl, {
      method: "POST",
      headers: oauthHeaders(s),
      body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
    });
    return {
      ...tokens(body),
      workspaceId: typeof body.workspace_id === "string" ? body.workspace_id : null,
      workspaceName: typeof body.workspace_name === "string" && body.workspace_name ? body.workspace_name : "Notion workspace",
      accountEmail: body.owner?.user?.person?.email ?? null,
    };
  },
  async refresh(s, refreshToken) {
    const body = await providerFetch(SERVICE, s.tokenUrl, {
      method: "POST",
      headers: oauthHeaders(s),
      body: JSON.stringify({ grant_type: "refresh_token", refresh_token: refreshToken }),
    });
    return tokens(body);
  },
  async revoke(s, { accessToken: token }) {
    if (!token) return;
    await providerFetch(SERVICE, `${s.apiUrl}/v1/oauth/revoke`, { method: "POST", headers: oauthHeaders(s), body: JSON.stringify({ token }) });
  },
};

const apiHeaders = (token: string) => ({
  Authorization: `Bearer ${token}`,
  "Content-Type": "application/json",
  "Notion-Version": NOTION_VERSION,
});

/** The first page shared with the integration, used as the parent when none is given. */
export async function firstSharedPage(s: ProviderSettings, call: Authorized): Promise<string | null> {
  const body = await call((token) =>
    providerFetch(SERVICE, `${s.apiUrl}/v1/search`, {
      method: "POST",
      headers: apiHeaders(token),
      body: JSON.stringify({ filter: { property: "object", value: "page" }, sort: { direction: "descending", timestamp: "last_edited_time" }, page_size: 1 }),
    }),
  );
  const first = Array.isArray(body?.results) ? body.results[0] : null;
  return typeof first?.id === "string" ? first.id : null;
}

/** Creates the page with the first chunk of blocks, then appends the other chunks in order. */
export async function createNotionPage(
  s: ProviderSettings,
  call: Authorized,
  page: { parentPageId: string; title: string; chunks: NotionBlock[][] },
): Promise<{ pageId: string; pageUrl: string }> {
  const [first = [], ...rest] = page.chunks;
  const created = await call((token) =>
    providerFetch(SERVICE, `${s.apiUrl}/v1/pages`, {
      method: "POST",
      headers: apiHeaders(token),
      body: JSON.stringify({
        parent: { page_id: page.parentPageId },
        properties: { title: { title: [{ type: "text", text: { content: page.title.slice(0, 2000) } }] } },
        children: first,
      }),
    }),
  );
  const pageId = String(created.id);
  for (const chunk of rest) {
    await call((token) =>
      providerFetch(SERVICE, `${s.apiUrl}/v1/blocks/${encodeURIComponent(pageId)}/children`, {
        method: "PATCH",
        headers: apiHeaders(token),
        body: JSON.stringify({ children: chunk }),
      }),
    );
  }
  const pageUrl = typeof created.url === "string" ? created.url : `https://www.notion.so/${pageId.replace(/-/g, "")}`;
  return { pageId, pageUrl };
}
