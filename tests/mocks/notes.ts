import { randomUUID } from "node:crypto";
import { http, HttpResponse } from "msw";
import { basicCredentials, createOAuthKit } from "./oauth-kit";

/**
 * The Notion API as an msw stand-in, with the real request and response
 * shapes: OAuth (authorize URL check, token endpoint with HTTP Basic client
 * authentication, refresh rotation, revoke), search, POST /v1/pages and
 * PATCH /v1/blocks/{id}/children. Like Notion it refuses requests without a
 * Notion-Version header, with more than 100 children in an array, rich-text
 * content over 2,000 characters or more than two levels of nesting
 * (400 validation_error), and unknown or expired tokens (401 unauthorized).
 */

export const NOTES_CLIENT = { id: "notes-client-id", secret: "notes-client-secret" };
const KNOWN_VERSIONS = new Set(["2022-06-28", "2025-09-03"]);
const BLOCK_TYPES = new Set([
  "paragraph",
  "heading_1",
  "heading_2",
  "heading_3",
  "bulleted_list_item",
  "numbered_list_item",
  "to_do",
  "quote",
  "code",
  "divider",
  "table",
  "table_row",
  "image",
  "callout",
  "toggle",
]);

export interface NotionPage {
  id: string;
  parentId: string;
  title: string;
  children: any[];
  url: string;
}

const error = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  HttpResponse.json({ object: "error", status, code, message, request_id: randomUUID() }, { status, headers });

/** The first rule a block array breaks, as Notion words it, or null. */
export function notionValidation(children: unknown, path: string, depth = 0): string | null {
  if (!Array.isArray(children)) return `${path} should be an array, instead was \`${JSON.stringify(children)}\`.`;
  if (children.length > 100) return `${path}.length should be ≤ \`100\`, instead was \`${children.length}\`.`;
  for (const [i, b] of children.entries()) {
    const at = `${path}[${i}]`;
    const body = b?.[b?.type];
    if (!BLOCK_TYPES.has(b?.type) || !body) return `${at} should be a valid block, instead was \`${JSON.stringify(b).slice(0, 80)}\`.`;
    const texts: [string, any[]][] = [];
    if (body.rich_text) texts.push([`${at}.${b.type}.rich_text`, body.rich_text]);
    if (body.caption) texts.push([`${at}.${b.type}.caption`, body.caption]);
    if (body.cells) body.cells.forEach((cell: any[], c: number) => texts.push([`${at}.table_row.cells[${c}]`, cell]));
    for (const [p, rich] of texts) {
      if (rich.length > 100) return `${p}.length should be ≤ \`100\`, instead was \`${rich.length}\`.`;
      for (const [j, r] of rich.entries()) {
        const content = r?.text?.content;
        if (typeof content !== "string") return `${p}[${j}].text.content should be defined, instead was \`undefined\`.`;
        if (content.length > 2000) return `${p}[${j}].text.content.length should be ≤ \`2000\`, instead was \`${content.length}\`.`;
        const url = r.text.link?.url;
        if (url !== undefined && !/^https?:\/\//.test(url)) return `Invalid URL for link.`;
      }
    }
    if (b.type === "table") {
      if (!Array.isArray(body.children) || !body.children.length) return `${at}.table.children should be defined, instead was \`undefined\`.`;
      for (const row of body.children)
        if (row.table_row?.cells?.length !== body.table_width) return `Number of cells in table row must match the table width of the parent.`;
    }
    if (body.children) {
      if (depth >= 2) return `${at}.${b.type}.children should be not present, instead was \`[...]\`.`;
      const nested = notionValidation(body.children, `${at}.${b.type}.children`, depth + 1);
      if (nested) return nested;
    }
  }
  return null;
}

const count = (blocks: any[]): number => blocks.reduce((n, b) => n + 1 + count(b?.[b?.type]?.children ?? []), 0);

export function createNotesMock(
  options: { base?: string; client?: { id: string; secret: string }; workspaceName?: string; sharedPageIds?: string[]; accessTtlSeconds?: number | null } = {},
) {
  const base = options.base ?? "https://api.notion.com";
  const client = options.client ?? NOTES_CLIENT;
  const kit = createOAuthKit({ accessTtlSeconds: options.accessTtlSeconds ?? null, rotateRefresh: true });
  const workspace = { id: randomUUID(), name: options.workspaceName ?? "Acme Product Wiki" };
  const shared = [...(options.sharedPageIds ?? [randomUUID()])];
  const pages = new Map<string, NotionPage>();

  /** Checks an authorization URL like Notion does and returns the code the redirect would carry. */
  function authorize(authorizationUrl: string) {
    const url = new URL(authorizationUrl);
    const q = url.searchParams;
    if (url.origin + url.pathname !== `${base}/v1/oauth/authorize`) throw new Error(`unexpected authorize URL ${url.origin}${url.pathname}`);
    if (q.get("client_id") !== client.id || q.get("response_type") !== "code" || q.get("owner") !== "user" || !q.get("redirect_uri") || !q.get("state")) {
      throw new Error(`bad authorize parameters: ${q}`);
    }
    return { code: kit.newCode(q.get("redirect_uri")!), state: q.get("state")!, redirectUri: q.get("redirect_uri")! };
  }

  const authorized = (request: Request) => {
    if (!KNOWN_VERSIONS.has(request.headers.get("Notion-Version") ?? "")) {
      return error(
        400,
        "missing_version",
        `Notion-Version header failed validation: Notion-Version header should be defined, instead was \`${request.headers.get("Notion-Version")}\`.`,
      );
    }
    if (!kit.bearer(request)) return error(401, "unauthorized", "API token is invalid.");
    return null;
  };

  const validateChildren = (children: unknown) => {
    const problem = notionValidation(children, "body.children");
    if (problem) return error(400, "validation_error", `body failed validation: ${problem}`);
    if (count(children as any[]) > 1000) return error(400, "validation_error", "body failed validation: too many blocks in one request (limit 1000).");
    return null;
  };

  const handlers = [
    http.post(`${base}/v1/oauth/token`, async ({ request }) => {
      const logged = await kit.log(request);
      const creds = basicCredentials(request);
      if (!creds || creds.id !== client.id || creds.secret !== client.secret)
        return HttpResponse.json({ error: "invalid_client", error_description: "Invalid client credentials." }, { status: 401 });
      const body = logged.body as Record<string, string>;
      const grant =
        body.grant_type === "authorization_code"
          ? kit.redeemCode(body.code ?? "", body.redirect_uri)?.grant
          : body.grant_type === "refresh_token"
            ? kit.redeemRefresh(body.refresh_token ?? "")
            : null;
      if (!grant) return HttpResponse.json({ error: "invalid_grant", error_description: "Invalid code or refresh token." }, { status: 400 });
      return HttpResponse.json({
        access_token: grant.accessToken,
        token_type: "bearer",
        refresh_token: grant.refreshToken,
        ...(grant.accessExpiresAt ? { expires_in: Math.round((grant.accessExpiresAt - Date.now()) / 1000) } : {}),
        bot_id: randomUUID(),
        workspace_name: workspace.name,
        workspace_icon: null,
        workspace_id: workspace.id,
        owner: {
          type: "user",
          user: { object: "user", id: randomUUID(), name: "Pat Writer", avatar_url: null, type: "person", person: { email: "pat@acme.example" } },
        },
        duplicated_template_id: null,
        request_id: randomUUID(),
      });
    }),
    http.post(`${base}/v1/oauth/revoke`, async ({ request }) => {
      const logged = await kit.log(request);
      const creds = basicCredentials(request);
      if (!creds || creds.id !== client.id || creds.secret !== client.secret) return HttpResponse.json({ error: "invalid_client" }, { status: 401 });
      kit.revoke(String((logged.body as any)?.token ?? ""));
      return HttpResponse.json({ request_id: randomUUID() });
    }),
    http.post(`${base}/v1/search`, async ({ request }) => {
      await kit.log(request);
      const refused = kit.takeFailure("POST", "/v1/search") ?? authorized(request);
      if (refused) return refused;
      const results = shared.map((id) => ({
        object: "page",
        id,
        url: `https://www.notion.so/${id.replace(/-/g, "")}`,
        parent: { type: "workspace", workspace: true },
      }));
      return HttpResponse.json({
        object: "list",
        results: results.slice(0, 1),
        next_cursor: null,
        has_more: results.length > 1,
        type: "page_or_database",
        page_or_database: {},
      });
    }),
    http.post(`${base}/v1/pages`, async ({ request }) => {
      const logged = await kit.log(request);
      const refused = kit.takeFailure("POST", "/v1/pages") ?? authorized(request);
      if (refused) return refused;
      const body = logged.body as any;
      const parentId = body?.parent?.page_id;
      if (!parentId) return error(400, "validation_error", "body failed validation: body.parent.page_id should be defined, instead was `undefined`.");
      if (!shared.includes(parentId) && !pages.has(parentId)) {
        return error(
          404,
          "object_not_found",
          `Could not find page with ID: ${parentId}. Make sure the relevant pages and databases are shared with your integration.`,
        );
      }
      const invalid = validateChildren(body.children ?? []);
      if (invalid) return invalid;
      const title = (body.properties?.title?.title ?? []).map((t: any) => t.text?.content ?? "").join("");
      const id = randomUUID();
      const url = `https://www.notion.so/${title.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}-${id.replace(/-/g, "")}`;
      pages.set(id, { id, parentId, title, children: [...(body.children ?? [])], url });
      return HttpResponse.json({
        object: "page",
        id,
        created_time: new Date().toISOString(),
        parent: { type: "page_id", page_id: parentId },
        archived: false,
        properties: body.properties,
        url,
        public_url: null,
        request_id: randomUUID(),
      });
    }),
    http.patch(`${base}/v1/blocks/:blockId/children`, async ({ request, params }) => {
      const logged = await kit.log(request);
      const refused = kit.takeFailure("PATCH", new URL(request.url).pathname) ?? authorized(request);
      if (refused) return refused;
      const page = pages.get(String(params.blockId));
      if (!page)
        return error(
          404,
          "object_not_found",
          `Could not find block with ID: ${params.blockId}. Make sure the relevant pages and databases are shared with your integration.`,
        );
      const children = (logged.body as any)?.children;
      const invalid = validateChildren(children);
      if (invalid) return invalid;
      page.children.push(...children);
      return HttpResponse.json({
        object: "list",
        results: children.map((c: any) => ({ ...c, id: randomUUID(), has_children: !!c[c.type]?.children })),
        next_cursor: null,
        has_more: false,
        type: "block",
        block: {},
      });
    }),
  ];

  return {
    ...kit,
    handlers,
    pages,
    shared,
    workspace,
    client,
    base,
    authorize,
    rateLimit: (path: string, method = "POST", retryAfter = "1") =>
      kit.failures.push({
        method,
        path,
        status: 429,
        body: { object: "error", status: 429, code: "rate_limited", message: "You have been rate limited. Please try again in a few minutes." },
        headers: { "Retry-After": retryAfter },
      }),
  };
}
export type NotesMock = ReturnType<typeof createNotesMock>;
