import { z } from "zod/v4";
import { ADMIN_ROLES, WRITER_ROLES } from "~/domain/actor";
import { TRACKER_SERVICES } from "~/domain/trackers/adapter";
import { allowedTargetsSchema, connectTrackerSchema, sendStoriesSchema, webhookSecretSchema } from "~/domain/trackers/trackers.schema";
import { contract } from "../contract";
import { oauthCallbackQuery, success } from "./shapes";

// Issue-tracker sync (docs/trackers.md): additions to the published interface. Each exported contract is picked up by ./index.ts.

const tag = "Integrations";
const service = z.enum(TRACKER_SERVICES);
const state = z.enum(["open", "in_progress", "done"]);

const connectionShape = z.object({
  id: z.string(),
  service,
  serviceName: z.string(),
  targetKind: z.string(),
  authKind: z.enum(["token", "oauth"]),
  accountLabel: z.string(),
  lastError: z.string().nullable(),
  needsReconnect: z.boolean(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  webhookUrl: z.string(),
  webhookSecret: z.string().nullable(),
  allowedTargets: z.array(z.object({ id: z.string(), name: z.string() })).nullable(),
});

const issueShape = z.object({
  id: z.string(),
  storyKey: z.string(),
  service,
  target: z.string(),
  section: z.string().nullable(),
  externalId: z.string(),
  externalNumber: z.number().nullable(),
  externalKey: z.string(),
  url: z.string(),
  title: z.string(),
  state,
  lastSyncedAt: z.string(),
});

const progressShape = z.object({ total: z.number(), done: z.number(), inProgress: z.number(), open: z.number() });
const idParams = z.object({ id: z.string() });
const projectParams = z.object({ projectId: z.string() });

export const listTrackers = contract({
  method: "GET",
  path: "/api/integrations/trackers",
  tag,
  summary: "The organization's issue-tracker connections",
  description:
    "Everyone in the organization sees which trackers are connected. `allowedTargets`: the repositories, teams or projects stories may be sent to with the connection, as an owner or admin chose them (PUT /api/integrations/trackers/{id}/allowed-targets); null while none were chosen: any target the token reaches. `authKind` says whether a connection was made with a pasted token or with OAuth; `needsReconnect` is true when the service refused to renew an OAuth connection (`lastError` then starts with “Needs reconnecting”). `webhookSecret` (what the service signs its webhooks with) is given to owners and admins only, null for everyone else. `services`: what an owner or admin can connect on this server; `oauth`: those of them that can also be connected with OAuth (GET /api/integrations/trackers/{service}/connect); both empty for others. Not in the published interface.",
  auth: "user",
  response: z.object({ connections: z.array(connectionShape), services: z.array(service), oauth: z.array(service) }),
});

export const connectTracker = contract({
  method: "POST",
  path: "/api/integrations/trackers",
  tag,
  summary: "Connect an issue tracker with a token",
  description:
    "Owners and admins. For Jira, `settings` has `siteUrl` (https://….atlassian.net, or a host the server allows in JIRA_ALLOWED_HOSTS; anything else is 400 on `settings.siteUrl` before any request) and `email` (the Atlassian account's). The token is checked with the service first (GitHub: GET /user); a refused token is 400 VALIDATION_ERROR with the service's reason on `token`. The token is stored AES-256-GCM encrypted and never returned. The response carries the webhook URL and secret to paste into the service. Not in the published interface.",
  auth: "user",
  roles: ADMIN_ROLES,
  body: connectTrackerSchema,
  successStatus: 201,
  response: z.object({ connection: connectionShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "CONFLICT", "PROVIDER_ERROR"],
});

export const disconnectTracker = contract({
  method: "POST",
  path: "/api/integrations/trackers/{id}/disconnect",
  tag,
  summary: "Disconnect an issue tracker",
  description:
    "Owners and admins. Deletes the stored token; issues already linked stay listed on their projects but are no longer updated. Not in the published interface.",
  auth: "user",
  roles: ADMIN_ROLES,
  params: idParams,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const setTrackerWebhookSecret = contract({
  method: "POST",
  path: "/api/integrations/trackers/{id}/webhook-secret",
  tag,
  summary: "Use the webhook signing secret the service generated",
  description:
    "Owners and admins. Replaces the secret the connection's webhooks must be signed with by `secret` (e.g. the signing secret Linear shows for a webhook made in its settings); stored AES-256-GCM encrypted. Webhooks signed with the previous secret are refused from then on. Not in the published interface.",
  auth: "user",
  roles: ADMIN_ROLES,
  params: idParams,
  body: webhookSecretSchema,
  response: z.object({ connection: connectionShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const setTrackerAllowedTargets = contract({
  method: "PUT",
  path: "/api/integrations/trackers/{id}/allowed-targets",
  tag,
  summary: "Choose where stories may be sent with a tracker connection",
  description:
    "Owners and admins. `allowedTargets`: the ids (as GET /api/integrations/trackers/{id}/targets gives them: `owner/name`, a Linear team id, a Jira project key; compared without case) stories may be sent to, each one the token can reach now or one already allowed; or null to allow any target the token reaches. An empty list, or a target the token cannot reach, is 400 on `allowedTargets` (the service is asked for its targets first: its failures are 502 or 409 as for /targets). From then on a preview or send to any other target is 403 FORBIDDEN, through the API, the pages and MCP. Recorded in the audit log. Not in the published interface.",
  auth: "user",
  roles: ADMIN_ROLES,
  params: idParams,
  body: allowedTargetsSchema,
  response: z.object({ connection: connectionShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PROVIDER_ERROR"],
});

export const trackerTargets = contract({
  method: "GET",
  path: "/api/integrations/trackers/{id}/targets",
  tag,
  summary: "Repositories, teams or projects a tracker connection can create issues in",
  description:
    "GitHub: the repositories the token can push to, with issues on. `allowed`: whether stories may be sent there (the connection's `allowedTargets`). Rate limits: 502 PROVIDER_ERROR with Retry-After. An OAuth connection whose access token expires within a minute is renewed first; 409 CONFLICT when the service refuses to renew it (it needs reconnecting). Not in the published interface.",
  auth: "user",
  roles: WRITER_ROLES,
  params: idParams,
  response: z.object({ targets: z.array(z.object({ id: z.string(), name: z.string(), url: z.string().nullable(), allowed: z.boolean() })) }),
  errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT", "PROVIDER_ERROR"],
});

export const previewTrackerSend = contract({
  method: "POST",
  path: "/api/projects/{projectId}/tracker/preview",
  tag,
  summary: "Preview sending a project's user stories to a tracker",
  description:
    "The stories of a saved user-stories AI output (`outputId`) or of Markdown (`markdown`, e.g. stories picked in the editor), each with the issue that would be sent (title, body with the acceptance criteria and a link back to the PRD, labels) and `action`: `create`, or `update` when the story is already linked to an issue in this target. Nothing is sent or stored. Needs edit rights on the project. A target the connection does not allow (its `allowedTargets`) is 403 FORBIDDEN on `target`. Not in the published interface.",
  auth: "user",
  roles: WRITER_ROLES,
  params: projectParams,
  body: sendStoriesSchema,
  response: z.object({
    connectionId: z.string(),
    service,
    target: z.string(),
    creates: z.number(),
    updates: z.number(),
    stories: z.array(
      z.object({
        key: z.string(),
        title: z.string(),
        body: z.string(),
        labels: z.array(z.string()),
        section: z.string().nullable(),
        action: z.enum(["create", "update"]),
        issue: issueShape.nullable(),
      }),
    ),
  }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PROVIDER_ERROR"],
});

export const sendToTracker = contract({
  method: "POST",
  path: "/api/projects/{projectId}/tracker/send",
  tag,
  summary: "Send a project's user stories to a tracker",
  description:
    "Creates an issue for each story not yet linked in this target and updates the linked ones, in order; each link is stored as soon as the service has the issue, so a failure midway leaves the earlier stories linked and sending again continues without duplicates. A rate limit with a Retry-After of up to 10 s is waited for and retried once; a longer one stops the send, and that story and the rest are reported (`failed`, `not_sent`) with the time to wait. Always 200 with one result per story, except 409 CONFLICT while another send of this project to the same target is running (one send per target at a time, so two sends never both create an issue for a story), and 403 FORBIDDEN on `target` for a target the connection does not allow (its `allowedTargets`, chosen by an owner or admin). Not in the published interface.",
  auth: "user",
  roles: WRITER_ROLES,
  params: projectParams,
  body: sendStoriesSchema,
  response: z.object({
    service,
    target: z.string(),
    created: z.number(),
    updated: z.number(),
    failed: z.number(),
    results: z.array(
      z.object({
        key: z.string(),
        title: z.string(),
        action: z.enum(["created", "updated", "failed", "not_sent"]),
        issue: issueShape.nullable(),
        error: z.string().nullable(),
      }),
    ),
  }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PROVIDER_ERROR"],
});

export const listTrackerIssues = contract({
  method: "GET",
  path: "/api/projects/{projectId}/tracker/issues",
  tag,
  summary: "Issues linked to a project's stories, with delivery progress",
  description:
    "Each issue's state (open, in_progress, done) as the tracker's webhooks or the last refresh (POST /api/projects/{projectId}/tracker/refresh) reported it; `lastSyncedAt` is when. Not in the published interface.",
  auth: "user",
  params: projectParams,
  response: z.object({ issues: z.array(issueShape), progress: progressShape }),
  errors: ["NOT_FOUND"],
});

export const refreshTrackerIssues = contract({
  method: "POST",
  path: "/api/projects/{projectId}/tracker/refresh",
  tag,
  summary: "Refresh the states of a project's linked issues from the trackers",
  description:
    "For servers the trackers' webhooks cannot reach: reads each linked issue from its tracker (4 at a time, at most 200 per call, the longest unchecked first; `remaining` says how many are left for another call) and stores its state, title and `lastSyncedAt`, each as soon as it is read. Issues whose connection was disconnected are not read (`skipped`). An issue the tracker no longer has (deleted, or out of the token's sight) is reported in `results[].error` and keeps its state. A rate limit with a Retry-After of up to 10 s is waited for and retried once; a longer one, or a refused token, stops that connection, and the rest of its issues are reported as not refreshed with the time to wait; states read before it are kept. Always 200 with one result per issue read or tried. Needs edit rights on the project, like sending. Not in the published interface.",
  auth: "user",
  roles: WRITER_ROLES,
  params: projectParams,
  response: z.object({
    refreshed: z.number(),
    changed: z.number(),
    failed: z.number(),
    skipped: z.number(),
    remaining: z.number(),
    results: z.array(
      z.object({
        id: z.string(),
        externalKey: z.string(),
        service,
        state,
        previousState: state,
        changed: z.boolean(),
        error: z.string().nullable(),
      }),
    ),
    progress: progressShape,
  }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

/**
 * The webhook a tracker calls for one connection. Public; the body must be
 * signed with the connection's webhook secret, else 401. 200 when a linked
 * issue was updated, or a repeat was acknowledged; 202 when the event was
 * accepted but changes nothing here.
 */
function trackerWebhook(service: "github" | "linear" | "jira", name: string, rules: string) {
  return contract({
    method: "POST",
    path: `/api/webhooks/trackers/${service}/{connectionId}`,
    tag,
    summary: `${name} webhook of a tracker connection`,
    description: `Public; ${name} calls it. ${rules} 200 when a linked issue was updated; 202 when the event was accepted but changes nothing here (another event, an issue not linked to a story). A delivery already applied (the same delivery id, or the same signed body) is answered 200 with \`ignored: "duplicate"\` and not applied again; one sent more than 6 days ago, 200 with \`ignored: "too_old"\`. At most 2 MB. Not in the published interface.`,
    auth: "public",
    crossSite: true,
    params: z.object({ connectionId: z.string() }),
    alsoSuccess: [202],
    response: z.object({ received: z.literal(true), updated: z.number(), ignored: z.enum(["duplicate", "too_old"]).optional() }),
    errors: ["NOT_FOUND", "UNAUTHORIZED", "PAYLOAD_TOO_LARGE"],
  });
}

export const trackerWebhooks = {
  github: trackerWebhook(
    "github",
    "GitHub",
    "The body must be signed with the connection's webhook secret (`X-Hub-Signature-256`, HMAC-SHA256), else 401. `issues` events (opened, edited, closed, reopened, labeled, unlabeled) update the state of the linked issue: closed is done, an open issue labelled “in progress” is in progress, otherwise open. Repeats are recognised by `X-GitHub-Delivery` and by the signed body.",
  ),
  linear: trackerWebhook(
    "linear",
    "Linear",
    "The body must be signed with the connection's webhook secret (`Linear-Signature`, hex HMAC-SHA256 of the raw body) and its `webhookTimestamp` be within 60 s of now, else 401. `Issue` events (create, update, remove) update the state of the linked issue from its workflow state type: backlog, unstarted and triage are open, started is in progress, completed and canceled are done. Repeats are recognised by `Linear-Delivery` and by the signed body (its `webhookId` and `webhookTimestamp` included).",
  ),
  jira: trackerWebhook(
    "jira",
    "Jira",
    "An admin webhook created with the connection's secret. The body must be signed (`X-Hub-Signature: sha256=` hex HMAC-SHA256 of the raw body), else 401. `jira:issue_created`, `jira:issue_updated` and `jira:issue_deleted` update the state of the linked issue from its status category: new is open, indeterminate is in progress, done is done. Repeats are recognised by `X-Atlassian-Webhook-Identifier` (unchanged across Jira's retries) and by the signed body.",
  ),
};

const OAUTH: Record<"github" | "linear" | "jira", { name: string; consent: string; scopes: string }> = {
  github: { name: "GitHub", consent: "GITHUB_OAUTH_URL/login/oauth/authorize (default https://github.com)", scopes: "`repo`" },
  linear: { name: "Linear", consent: "LINEAR_AUTH_URL (default https://linear.app/oauth/authorize)", scopes: "`read,write`" },
  jira: {
    name: "Jira",
    consent: "JIRA_AUTH_URL (default https://auth.atlassian.com/authorize, audience api.atlassian.com)",
    scopes: "`read:jira-work write:jira-work read:jira-user offline_access`",
  },
};

/** Starting to connect one tracker with OAuth (docs/trackers.md, "Connecting with OAuth"). */
function trackerOAuthConnect(service: "github" | "linear" | "jira") {
  const o = OAUTH[service];
  const env = service.toUpperCase();
  return contract({
    method: "GET",
    path: `/api/integrations/trackers/${service}/connect`,
    tag,
    summary: `Start connecting ${o.name} with OAuth (authorization URL)`,
    description: `Owners and admins. \`url\` is ${o.name}'s authorization page, ${o.consent}, with client_id, redirect_uri = {APP_URL}/api/integrations/trackers/${service}/callback, scope ${o.scopes} and a \`state\` that is single use, valid 10 minutes and bound to the caller's browser session (for a flow started with an API key, a browser signed in as the same user). Send the browser there; after the user allows access, the callback stores the connection (tokens encrypted) and redirects to /settings/trackers. Connecting the same ${o.name} account again renews its connection (same webhook URL and secret). 409 CONFLICT when ${env}_CLIENT_ID and ${env}_CLIENT_SECRET are unset (a token can still be pasted with POST /api/integrations/trackers). Not in the published interface.`,
    auth: "user",
    roles: ADMIN_ROLES,
    writesOnGet: true,
    // A GET that starts connecting the organization to a service: admin keys only.
    scope: "admin",
    response: z.object({ url: z.string(), expiresAt: z.string() }),
    errors: ["FORBIDDEN", "CONFLICT"],
  });
}

/** Where a tracker's authorization page sends the browser back. */
function trackerOAuthCallback(service: "github" | "linear" | "jira") {
  const o = OAUTH[service];
  return contract({
    method: "GET",
    path: `/api/integrations/trackers/${service}/callback`,
    tag,
    summary: `${o.name}'s OAuth redirect target (browser)`,
    description: `Where ${o.name} sends the browser with \`code\` and \`state\` (or \`error\`, e.g. access_denied). Authenticated by \`state\` and the browser session that started the flow; the user must still be an owner or admin. Always 302 with a one-time notice: to /settings/trackers (“Connected ${o.name} as …”), or to /settings/trackers?error=<reason>&service=${service} where reason is access_denied, invalid_state (unknown, already used or another service's), expired_state, wrong_session (another browser session or account), not_allowed, token_error (${o.name} refused the code or the token), ${service === "jira" ? "no_site (no Jira Cloud site was granted), " : ""}not_configured or provider_error. Not in the published interface.`,
    auth: "public",
    crossSite: true,
    writesOnGet: true,
    query: oauthCallbackQuery,
    successStatus: 302,
    responseType: "text/plain",
    errors: ["VALIDATION_ERROR"],
  });
}

export const connectGithubOAuth = trackerOAuthConnect("github");
export const connectLinearOAuth = trackerOAuthConnect("linear");
export const connectJiraOAuth = trackerOAuthConnect("jira");
export const githubOAuthCallback = trackerOAuthCallback("github");
export const linearOAuthCallback = trackerOAuthCallback("linear");
export const jiraOAuthCallback = trackerOAuthCallback("jira");

/** The same contracts by service, for the route factory (app/http/api/tracker-oauth-route.server.ts). */
export const trackerOAuthContracts = {
  connect: { github: connectGithubOAuth, linear: connectLinearOAuth, jira: connectJiraOAuth },
  callback: { github: githubOAuthCallback, linear: linearOAuthCallback, jira: jiraOAuthCallback },
};
