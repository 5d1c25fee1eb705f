import { http, HttpResponse } from "msw";
import { createOAuthKit, rid } from "./oauth-kit";

/**
 * Confluence Cloud behind Atlassian OAuth 2.0 (3LO) as an msw stand-in:
 * auth.atlassian.com's token endpoint (client credentials in the JSON body,
 * access tokens valid one hour, rotating refresh tokens — a spent one
 * answers 403 unauthorized_client), accessible-resources for the cloud id,
 * and the REST content API, which refuses storage that is not well-formed
 * XHTML, unknown spaces or ancestors, and titles already used in the space,
 * with Confluence's error bodies.
 */

export const WIKI_CLIENT = { id: "wiki-client-id", secret: "wiki-client-secret" };

export interface WikiPage {
  id: string;
  title: string;
  spaceKey: string;
  ancestors: string[];
  storage: string;
  representation: string;
}

/**
 * Null when `storage` is well-formed XML (as Confluence's storage parser
 * demands: every element closed, void elements self-closed, attributes
 * quoted, `&` only in entities, CDATA and comments closed), else a message.
 */
export function xhtmlProblem(storage: string): string | null {
  const open: string[] = [];
  const tag = /^<(\/?)([A-Za-z][\w:.-]*)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/;
  let i = 0;
  while (i < storage.length) {
    const rest = storage.slice(i);
    if (rest.startsWith("<![CDATA[")) {
      const end = storage.indexOf("]]>", i);
      if (end < 0) return "Unclosed CDATA section";
      i = end + 3;
    } else if (rest.startsWith("<!--")) {
      const end = storage.indexOf("-->", i);
      if (end < 0) return "Unclosed comment";
      i = end + 3;
    } else if (rest[0] === "<") {
      const m = tag.exec(rest);
      if (!m) return `The element starting at offset ${i} is not well-formed: ${rest.slice(0, 40)}`;
      const [whole, closing, name, , selfClosing] = m;
      if (closing) {
        const expected = open.pop();
        if (expected !== name) return `The element type "${expected}" must be terminated by the matching end-tag "</${expected}>" (found </${name}>)`;
      } else if (!selfClosing) open.push(name!);
      i += whole.length;
    } else if (rest[0] === "&") {
      if (!/^&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);/.test(rest))
        return `The entity name must immediately follow the '&' in the entity reference (offset ${i})`;
      i += 1;
    } else {
      i += 1;
    }
  }
  return open.length ? `The element type "${open.at(-1)}" must be terminated by the matching end-tag` : null;
}

export function createWikiMock(
  options: {
    authBase?: string;
    apiBase?: string;
    client?: { id: string; secret: string };
    siteName?: string;
    spaces?: { id: number; key: string; name: string }[];
    sites?: boolean;
  } = {},
) {
  const authBase = options.authBase ?? "https://auth.atlassian.com";
  const apiBase = options.apiBase ?? "https://api.atlassian.com";
  const client = options.client ?? WIKI_CLIENT;
  const kit = createOAuthKit({ accessTtlSeconds: 3600, rotateRefresh: true });
  const cloudId = crypto.randomUUID();
  const site = { id: cloudId, name: options.siteName ?? "acme-eng", url: "https://acme-eng.atlassian.net" };
  const spaces = options.spaces ?? [
    { id: 98305, key: "ENG", name: "Engineering" },
    { id: 98306, key: "PM", name: "Product" },
  ];
  const pages = new Map<string, WikiPage>();
  const existingPageIds = new Set<string>(["65601"]);
  let sites = options.sites ?? true;

  function authorize(authorizationUrl: string) {
    const url = new URL(authorizationUrl);
    const q = url.searchParams;
    if (url.origin + url.pathname !== `${authBase}/authorize`) throw new Error(`unexpected authorize URL ${url.origin}${url.pathname}`);
    const scopes = (q.get("scope") ?? "").split(" ");
    if (
      q.get("audience") !== "api.atlassian.com" ||
      q.get("client_id") !== client.id ||
      q.get("response_type") !== "code" ||
      !scopes.includes("offline_access") ||
      !scopes.includes("write:confluence-content") ||
      !q.get("state")
    ) {
      throw new Error(`bad authorize parameters: ${q}`);
    }
    return { code: kit.newCode(q.get("redirect_uri")!), state: q.get("state")!, redirectUri: q.get("redirect_uri")! };
  }

  const unauthorized = () => HttpResponse.json({ code: 401, message: "Unauthorized; scope does not match" }, { status: 401 });
  const badRequest = (message: string) =>
    HttpResponse.json({ statusCode: 400, data: { authorized: true, valid: false, errors: [], successful: false }, message }, { status: 400 });
  const content = `${apiBase}/ex/confluence/:cloudId/wiki/rest/api`;

  const handlers = [
    http.post(`${authBase}/oauth/token`, async ({ request }) => {
      const logged = await kit.log(request);
      const body = logged.body as Record<string, string>;
      if (body.client_id !== client.id || body.client_secret !== client.secret)
        return HttpResponse.json({ error: "access_denied", error_description: "Unauthorized" }, { status: 401 });
      if (body.grant_type === "authorization_code") {
        const redeemed = kit.redeemCode(body.code ?? "", body.redirect_uri);
        if (!redeemed) return HttpResponse.json({ error: "invalid_grant", error_description: "Invalid authorization code" }, { status: 403 });
        const g = redeemed.grant;
        return HttpResponse.json({
          access_token: g.accessToken,
          expires_in: 3600,
          token_type: "Bearer",
          refresh_token: g.refreshToken,
          scope: "write:confluence-content read:confluence-space.summary read:confluence-content.summary offline_access",
        });
      }
      if (body.grant_type === "refresh_token") {
        const g = kit.redeemRefresh(body.refresh_token ?? "");
        if (!g) return HttpResponse.json({ error: "unauthorized_client", error_description: "refresh_token is invalid" }, { status: 403 });
        return HttpResponse.json({
          access_token: g.accessToken,
          expires_in: 3600,
          token_type: "Bearer",
          refresh_token: g.refreshToken,
          scope: "write:confluence-content offline_access",
        });
      }
      return HttpResponse.json({ error: "unsupported_grant_type", error_description: "Unsupported grant type" }, { status: 400 });
    }),
    http.get(`${apiBase}/oauth/token/accessible-resources`, async ({ request }) => {
      await kit.log(request);
      if (!kit.bearer(request)) return unauthorized();
      return HttpResponse.json(
        sites
          ? [
              {
                ...site,
                scopes: ["write:confluence-content", "read:confluence-space.summary"],
                avatarUrl: "https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/rocket.png",
              },
            ]
          : [],
      );
    }),
    http.get(`${content}/space`, async ({ request, params }) => {
      await kit.log(request);
      if (!kit.bearer(request)) return unauthorized();
      if (params.cloudId !== cloudId) return HttpResponse.json({ code: 404, message: "Site not found" }, { status: 404 });
      const q = new URL(request.url).searchParams;
      const ids = q.getAll("spaceId").map(Number);
      const found = ids.length ? spaces.filter((s) => ids.includes(s.id)) : spaces;
      const limit = Number(q.get("limit") ?? 25);
      return HttpResponse.json({
        results: found.slice(0, limit).map((s) => ({ ...s, type: "global", status: "current", _links: { webui: `/spaces/${s.key}` } })),
        start: 0,
        limit,
        size: Math.min(limit, found.length),
        _links: {},
      });
    }),
    http.post(`${content}/content`, async ({ request, params }) => {
      const logged = await kit.log(request);
      const injected = kit.takeFailure("POST", new URL(request.url).pathname);
      if (injected) return injected;
      if (!kit.bearer(request)) return unauthorized();
      if (params.cloudId !== cloudId) return HttpResponse.json({ code: 404, message: "Site not found" }, { status: 404 });
      const body = logged.body as any;
      if (body?.type !== "page") return badRequest("Unsupported content type");
      if (typeof body.title !== "string" || !body.title.trim() || body.title.length > 255) return badRequest("Title must be between 1 and 255 characters");
      const space = spaces.find((s) => s.key === body.space?.key);
      if (!space) return badRequest(`No space with key : ${body.space?.key}`);
      const ancestors: string[] = (body.ancestors ?? []).map((a: any) => String(a.id));
      const parent = ancestors.at(-1);
      if (parent && !existingPageIds.has(parent) && !pages.has(parent)) return badRequest(`Could not find parent page with id ${parent}`);
      const storage = body.body?.storage;
      if (storage?.representation !== "storage" || typeof storage.value !== "string") return badRequest("Unsupported body representation");
      const problem = xhtmlProblem(storage.value);
      if (problem) return badRequest(`Error parsing xhtml: ${problem}`);
      if ([...pages.values()].some((p) => p.spaceKey === space.key && p.title === body.title)) {
        return badRequest("A page with this title already exists: A page already exists with the same TITLE in this space");
      }
      const id = String(100000 + pages.size + 1);
      pages.set(id, { id, title: body.title, spaceKey: space.key, ancestors, storage: storage.value, representation: storage.representation });
      const webui = `/spaces/${space.key}/pages/${id}/${encodeURIComponent(body.title).replace(/%20/g, "+")}`;
      return HttpResponse.json({
        id,
        type: "page",
        status: "current",
        title: body.title,
        space: { id: space.id, key: space.key, name: space.name },
        ancestors: ancestors.map((a) => ({ id: a })),
        version: { number: 1 },
        body: { storage: { value: storage.value, representation: "storage" } },
        _links: { webui, base: `${site.url}/wiki`, tinyui: `/x/${rid("", 3)}`, self: `${site.url}/wiki/rest/api/content/${id}` },
      });
    }),
  ];

  return { ...kit, handlers, pages, spaces, site, cloudId, existingPageIds, client, authBase, apiBase, authorize, setSites: (on: boolean) => (sites = on) };
}
export type WikiMock = ReturnType<typeof createWikiMock>;
