import { ErrorCode, WebClient } from "@slack/web-api";
import { config } from "~/config.server";

/**
 * The Slack Web API through @slack/web-api, pointed at SLACK_API_URL. The
 * client itself never waits or retries: a rate limit comes back at once as
 * `ratelimited` with its Retry-After, so the job queue decides when to try
 * again and no request is ever held up by Slack.
 */

export const SLACK_AUTHORIZE_URL = "https://slack.com/oauth/v2/authorize";
export const SLACK_SCOPES = ["chat:write", "channels:read", "groups:read"] as const;

/** The OAuth client, or null when the operator has not set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET. */
export function slackSettings() {
  const c = config();
  const clientId = c.SLACK_CLIENT_ID?.trim();
  const clientSecret = c.SLACK_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return null;
  return { clientId, clientSecret, apiUrl: c.SLACK_API_URL.endsWith("/") ? c.SLACK_API_URL : `${c.SLACK_API_URL}/` };
}

export const SLACK_ENV = { clientId: "SLACK_CLIENT_ID", clientSecret: "SLACK_CLIENT_SECRET" } as const;

export function slackClient(token?: string) {
  const apiUrl = slackSettings()?.apiUrl ?? `${config().SLACK_API_URL.replace(/\/?$/, "/")}`;
  return new WebClient(token, {
    slackApiUrl: apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: 15_000,
    allowAbsoluteUrls: false,
    logger: { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => "error" as never, setName() {} },
  });
}

/** A Slack failure in one shape: Slack's error code (channel_not_found, ratelimited, …) and, for rate limits, the wait. */
export interface SlackFailure {
  error: string;
  retryAfterSeconds: number | null;
}

export function slackFailure(e: unknown): SlackFailure {
  const err = e as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number };
  if (err?.code === ErrorCode.RateLimitedError) return { error: "ratelimited", retryAfterSeconds: Math.max(1, Number(err.retryAfter) || 30) };
  if (err?.code === ErrorCode.PlatformError) return { error: String(err.data?.error ?? "unknown_error"), retryAfterSeconds: null };
  if (err?.code === ErrorCode.HTTPError) return { error: `http_${err.statusCode ?? "error"}`, retryAfterSeconds: null };
  return { error: "unreachable", retryAfterSeconds: null };
}

/** Slack answers that mean the token no longer works: the connection needs to be made again. */
export const AUTH_ERRORS = new Set(["invalid_auth", "token_revoked", "account_inactive", "not_authed", "token_expired", "missing_scope"]);
/** Answers that will not change by retrying the same message. */
export const PERMANENT_ERRORS = new Set([...AUTH_ERRORS, "channel_not_found", "not_in_channel", "is_archived", "msg_too_long", "no_text", "invalid_blocks"]);

/** What a failure means, in plain words, for the settings page. */
export function slackErrorMessage(f: SlackFailure, channelName?: string | null): string {
  const channel = channelName ? `#${channelName}` : "the channel";
  switch (f.error) {
    case "channel_not_found":
      return `Slack could not find ${channel}: it may have been deleted or made private. Choose another channel.`;
    case "not_in_channel":
      return `The app is not a member of ${channel}. Invite it in Slack (/invite @PRD Studio) or choose another channel.`;
    case "is_archived":
      return `${channel} is archived. Choose another channel.`;
    case "invalid_auth":
    case "not_authed":
    case "token_expired":
    case "account_inactive":
    case "token_revoked":
      return "Slack no longer accepts this connection (the app was removed or its access revoked). Reconnect Slack.";
    case "missing_scope":
      return "The connection is missing a permission the app needs. Reconnect Slack to grant it.";
    case "ratelimited":
      return `Slack is limiting how fast messages can be sent; trying again in ${f.retryAfterSeconds ?? 30} seconds.`;
    case "unreachable":
      return "Slack could not be reached. Messages will be tried again.";
    default:
      return `Slack refused the message (${f.error}).`;
  }
}
