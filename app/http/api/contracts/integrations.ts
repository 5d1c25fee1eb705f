import { z } from "zod/v4";
import { exportDocsSchema, exportNotesSchema, exportWikiSchema, providerSchema } from "~/domain/integrations/integrations.schema";
import { type IntegrationProvider, PROVIDER_INFO, providerEnvNames } from "~/domain/integrations/providers";
import { contract } from "../contract";
import { oauthCallbackQuery } from "./shapes";

// Contracts of the workspace integrations and their exports. Each exported contract is picked up by ./index.ts.

const tag = "Integrations";

const integrationShape = z.object({
  connected: z.boolean(),
  workspaceName: z.string().nullable(),
  connectedAt: z.string().nullable(),
});

export const integrationsStatus = contract({
  method: "GET",
  path: "/api/integrations/status",
  tag,
  summary: "Connection state of the notes, wiki and docs integrations",
  description:
    "The caller's own connections in the current organization (connections belong to one user in one organization; nobody else sees or uses them). `workspaceName` is the Notion workspace, the Confluence site, or the Google account's e-mail; `connectedAt` is when the current connection was made. `docs` is an addition to the published interface (the Google account behind POST /api/export/docs).",
  auth: "user",
  response: z.object({ integrations: z.object({ notes: integrationShape, wiki: integrationShape, docs: integrationShape }) }),
  errors: ["UNAUTHORIZED"],
});

const connect = (provider: IntegrationProvider) => {
  const env = providerEnvNames(provider);
  return contract({
    method: "GET",
    path: `/api/integrations/${provider}/connect`,
    tag,
    summary: `Start connecting ${PROVIDER_INFO[provider].service} (OAuth 2 authorization URL)`,
    description: `\`url\` is the ${PROVIDER_INFO[provider].service} authorization URL to send the user's browser to (client_id, redirect_uri = {APP_URL}/api/integrations/${provider}/callback, scope where the service uses scopes, and a \`state\` bound to the caller and the organization, single use, valid 10 minutes${provider === "docs" ? "; with a PKCE S256 code_challenge" : ""}). After the user approves, the service redirects to the callback, which stores the tokens encrypted and redirects to /settings/integrations. Connecting again replaces the previous connection. 409 CONFLICT when the server has no OAuth client for the service (${env.clientId} and ${env.clientSecret} unset).`,
    auth: "user",
    writesOnGet: true,
    // A GET that starts a connection: not for read-only keys.
    scope: "write",
    response: z.object({ url: z.string(), expiresAt: z.string() }),
    errors: ["CONFLICT"],
  });
};

const disconnect = (provider: IntegrationProvider) =>
  contract({
    method: "POST",
    path: `/api/integrations/${provider}/disconnect`,
    tag,
    summary: `Disconnect ${PROVIDER_INFO[provider].service}`,
    description: `Deletes the caller's stored tokens${provider === "wiki" ? "" : ` and revokes them at ${PROVIDER_INFO[provider].service} (best effort)`}. Idempotent: \`wasConnected\` says whether there was a connection.`,
    auth: "user",
    response: z.object({ success: z.literal(true), wasConnected: z.boolean() }),
  });

export const connectNotes = connect("notes");
export const connectWiki = connect("wiki");
export const connectDocs = connect("docs");
export const disconnectNotes = disconnect("notes");
export const disconnectWiki = disconnect("wiki");
export const disconnectDocs = disconnect("docs");

export const integrationCallback = contract({
  method: "GET",
  path: "/api/integrations/{provider}/callback",
  tag,
  summary: "OAuth redirect target (browser)",
  description:
    "Where the service sends the browser after the user decides, with `code` and `state` (or `error`, e.g. access_denied). Authenticated by `state` and the browser session: a valid, unexpired, unused state binds the result to the user who started the flow, and it is accepted only from the browser session that started it (for a flow started with an API key, a browser signed in as the same user). Always answers 302: to /settings/integrations with a notice on success, or to /settings/integrations?error=<reason>&provider=<provider> where reason is access_denied, invalid_state (unknown, already used or another provider's), expired_state, wrong_session (another browser session or account), token_error (the service refused the code), no_site, not_configured or provider_error.",
  auth: "public",
  crossSite: true,
  writesOnGet: true,
  params: z.object({ provider: providerSchema }),
  query: oauthCallbackQuery,
  successStatus: 302,
  responseType: "text/plain",
  errors: ["VALIDATION_ERROR"],
});

const heldNote =
  " With an active `prd_export` approval workflow (Enterprise), the export answers 202 APPROVAL_REQUIRED with the approval request until an approval of the caller for the project exists; each approval lets one export through (given back when the export fails), as for the file exports.";

const notConnectedNote = (provider: IntegrationProvider) =>
  ` Without a connection (GET /api/integrations/${provider}/connect): 409 INTEGRATION_NOT_CONNECTED; a connection the service no longer accepts (revoked, refresh refused) is removed and answers the same. Service failures: 502 PROVIDER_ERROR with the service's message; a 429 is retried after its Retry-After up to twice, then 502 with \`Retry-After\`. Emits export.completed or export.failed.`;

export const exportNotes = contract({
  method: "POST",
  path: "/api/export/notes",
  tag,
  summary: "Export a project's PRD to a Notion page",
  description:
    "Creates a page titled with the project's name under `parentPageId` (a Notion page id, dashed or not, or the page's URL; default: the most recently edited page shared with the integration — 400 when there is none). The PRD becomes Notion blocks (headings, paragraphs with bold/italic/strike/code/link annotations, bulleted/numbered/to-do lists, code blocks with their language, tables, dividers, quotes, images by URL), split to Notion's limits: 2,000 characters per text run, 100 blocks per request (the first 100 with the page, the rest appended in order). Needs read access to the project (404 otherwise); 409 CONFLICT when it has no PRD yet." +
    notConnectedNote("notes") +
    heldNote,
  auth: "user",
  flag: "export_notes",
  heldBy: "prd_export",
  body: exportNotesSchema,
  response: z.object({ success: z.literal(true), pageUrl: z.string(), pageId: z.string() }),
  errors: ["VALIDATION_ERROR", "FEATURE_DISABLED", "NOT_FOUND", "CONFLICT", "INTEGRATION_NOT_CONNECTED", "PROVIDER_ERROR"],
});

export const exportWiki = contract({
  method: "POST",
  path: "/api/export/wiki",
  tag,
  summary: "Export markdown to a Confluence page",
  description:
    "Creates a page from `content` (markdown, rendered and sanitized to Confluence storage XHTML: code blocks as the code macro, images as ac:image). Title: `projectName`, else the content's first heading; a title already used in the space gets the export time appended. `spaceId`: a space key (ENG) or numeric space id (default: the first space you can see); `parentId`: the parent page id. `projectId` (optional addition) names the source project in the events and is access-checked. Content exports are not held by `prd_export` approval workflows (like the file exports' content mode). Answers `{success, pageUrl, pageId}`." +
    notConnectedNote("wiki"),
  auth: "user",
  flag: "export_wiki",
  body: exportWikiSchema,
  response: z.object({ success: z.literal(true), pageUrl: z.string(), pageId: z.string() }),
  errors: ["VALIDATION_ERROR", "FEATURE_DISABLED", "NOT_FOUND", "INTEGRATION_NOT_CONNECTED", "PROVIDER_ERROR"],
});

export const exportDocs = contract({
  method: "POST",
  path: "/api/export/docs",
  tag,
  summary: "Export a project's PRD to a Google Doc",
  description:
    "Uses the caller's Google sign-in (GET /api/integrations/docs/connect) to upload the branded HTML export to Drive as a Google Doc (Drive converts it) named after the project. `documentUrl` is https://docs.google.com/document/d/{documentId}/edit. Needs read access to the project (404 otherwise); 409 CONFLICT when it has no PRD yet." +
    notConnectedNote("docs") +
    heldNote,
  auth: "user",
  flag: "export_docs",
  heldBy: "prd_export",
  body: exportDocsSchema,
  response: z.object({ success: z.literal(true), documentUrl: z.string(), documentId: z.string() }),
  errors: ["VALIDATION_ERROR", "FEATURE_DISABLED", "NOT_FOUND", "CONFLICT", "INTEGRATION_NOT_CONNECTED", "PROVIDER_ERROR"],
});
