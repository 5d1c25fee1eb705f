import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { slackRoutingSchema, slackTestSchema } from "~/domain/slack/slack.schema";
import { contract } from "../contract";
import { oauthCallbackQuery } from "./shapes";

// Slack (docs/integrations.md, "Slack"): additions to the published interface. Each exported contract is picked up by ./index.ts.

const tag = "Integrations";

const channel = z.object({ channelId: z.string(), channelName: z.string() }).nullable();

const statusShape = z.object({
  configured: z.boolean(),
  canManage: z.boolean(),
  setup: z.object({ clientId: z.string(), clientSecret: z.string() }).nullable(),
  connected: z.boolean(),
  needsReconnect: z.boolean(),
  teamName: z.string().nullable(),
  connectedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  routing: z.object({
    defaultChannel: channel,
    events: z.record(z.string(), channel),
    projects: z.array(z.object({ projectId: z.string(), projectName: z.string(), channelId: z.string(), channelName: z.string() })),
  }),
});

const notSetUp =
  " While the server's operator has not set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET, members get 404 NOT_FOUND and owners and admins get `configured: false` with the variable names in `setup`.";

export const slackStatus = contract({
  method: "GET",
  path: "/api/integrations/slack",
  tag,
  summary: "The organization's Slack connection and where its messages go",
  description:
    "Any member may read it. `routing.events` has one entry per kind (review_requested, review_decided, approval_requested, approval_decided, mention, status_changed), null when the kind uses the default channel; `routing.projects` lists per-project overrides (they win over the kind's channel). `needsReconnect` is true after Slack refused the token (invalid_auth, token_revoked); `lastError` says what last went wrong, in plain words." +
    notSetUp,
  auth: "user",
  response: statusShape,
  errors: ["NOT_FOUND"],
});

export const slackRouting = contract({
  method: "PUT",
  path: "/api/integrations/slack",
  tag,
  summary: "Choose the Slack channels (owners and admins)",
  description:
    'Each channel id must be one the app can see (conversations.list), else 400 VALIDATION_ERROR on that field. `null` or "" clears a choice; a key left out is kept. `projects` sets or clears per-project overrides (projects of this organization only). 409 CONFLICT when Slack is not connected. Answers the new status.',
  auth: "user",
  roles: ADMIN_ROLES,
  body: slackRoutingSchema,
  response: statusShape,
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PROVIDER_ERROR"],
});

export const slackConnect = contract({
  method: "POST",
  path: "/api/integrations/slack/connect",
  tag,
  summary: "Start connecting a Slack workspace (owners and admins)",
  description:
    "`url` is Slack's OAuth v2 authorization URL (scopes chat:write, channels:read, groups:read; redirect_uri {APP_URL}/api/integrations/slack/callback; a single-use `state` bound to the caller's browser session, valid 10 minutes). The callback exchanges the code with oauth.v2.access and stores the bot token encrypted. Connecting again replaces the token and keeps the channels. 409 CONFLICT when SLACK_CLIENT_ID / SLACK_CLIENT_SECRET are unset.",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ url: z.string(), expiresAt: z.string() }),
  errors: ["FORBIDDEN", "CONFLICT"],
});

export const slackCallback = contract({
  method: "GET",
  path: "/api/integrations/slack/callback",
  tag,
  summary: "Slack's OAuth redirect target (browser)",
  description:
    "Always 302: to /settings/slack with a notice on success, or to /settings/slack?error=<reason> where reason is access_denied, invalid_state, expired_state, wrong_session, not_allowed, token_error, not_configured or provider_error.",
  auth: "public",
  crossSite: true,
  writesOnGet: true,
  query: oauthCallbackQuery,
  successStatus: 302,
  responseType: "text/plain",
  errors: ["VALIDATION_ERROR"],
});

export const slackDisconnect = contract({
  method: "POST",
  path: "/api/integrations/slack/disconnect",
  tag,
  summary: "Disconnect Slack (owners and admins)",
  description: "Revokes the bot token at Slack (auth.revoke, best effort) and deletes it; messages not yet sent are dropped. Idempotent.",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ success: z.literal(true), wasConnected: z.boolean() }),
  errors: ["FORBIDDEN"],
});

export const slackTest = contract({
  method: "POST",
  path: "/api/integrations/slack/test",
  tag,
  summary: "Send a test message to Slack (owners and admins)",
  description:
    "Posts a test message now to `channelId` or the default channel. 409 CONFLICT when Slack is not connected or no channel is chosen; 502 PROVIDER_ERROR with Slack's answer in plain words (recorded as the connection's last error; with `Retry-After` when Slack is rate limiting).",
  auth: "user",
  roles: ADMIN_ROLES,
  body: slackTestSchema,
  response: z.object({ success: z.literal(true), channelId: z.string(), channelName: z.string(), ts: z.string().nullable() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "CONFLICT", "PROVIDER_ERROR"],
});
