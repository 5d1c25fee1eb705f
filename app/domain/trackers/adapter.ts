import type { TrackerAuthKind, TrackerIssueState, TrackerService } from "#db/tables/trackers";

/**
 * The service-neutral side of issue-tracker sync (docs/trackers.md). Each
 * service (GitHub, Linear, Jira) is one TrackerAdapter; the core
 * (connections, preview, send, webhooks) never names a service.
 */

export type { TrackerAuthKind, TrackerIssueState, TrackerService };
export const TRACKER_SERVICES = ["github", "linear", "jira"] as const satisfies readonly TrackerService[];

/** `target`: what an issue is created in, as a person reads it. */
export const TRACKER_INFO: Record<TrackerService, { name: string; target: string; webhookEvents: string }> = {
  github: { name: "GitHub", target: "repository", webhookEvents: "Issues" },
  linear: { name: "Linear", target: "team", webhookEvents: "Issues" },
  jira: { name: "Jira", target: "project", webhookEvents: "Issue updated" },
};

/** What a call to the service needs: the decrypted token and the connection's service-specific settings. */
export interface TrackerCredentials {
  token: string;
  authKind: TrackerAuthKind;
  /** Non-secret settings (e.g. a Jira site URL and account e-mail). */
  settings: Record<string, string>;
}

/** A repository, team or project issues can be created in. `id` is what `target` holds. */
export interface TrackerTarget {
  id: string;
  name: string;
  url: string | null;
}

/** One issue as sent. */
export interface IssueDraft {
  title: string;
  /** Markdown. */
  body: string;
  labels: string[];
}

/** One issue as the service has it. */
export interface ExternalIssue {
  externalId: string;
  externalNumber: number | null;
  externalKey: string;
  url: string;
  title: string;
  state: TrackerIssueState;
}

/** What a webhook says about one issue. */
export interface WebhookChange {
  externalId: string;
  state: TrackerIssueState;
  title?: string;
  /**
   * When the service says the change happened or the delivery was sent (ms),
   * from the signed body: a delivery older than the replay memory is refused
   * (webhook.server.ts). Absent when the body does not say.
   */
  sentAt?: number;
}

export interface TrackerAdapter {
  service: TrackerService;
  /** Checks and normalizes the connection's settings before any request (Jira: the site URL and e-mail); errors name `settings.<field>`. */
  prepareSettings?(settings: Record<string, string>): { settings: Record<string, string>; errors: { path: string; message: string }[] };
  /** Checks a token with the service; the account it belongs to, for the settings page. */
  validate(credentials: TrackerCredentials): Promise<{ accountLabel: string }>;
  /** Repositories the token can push to, teams, projects. */
  listTargets(credentials: TrackerCredentials): Promise<TrackerTarget[]>;
  createIssue(credentials: TrackerCredentials, target: string, draft: IssueDraft): Promise<ExternalIssue>;
  updateIssue(
    credentials: TrackerCredentials,
    target: string,
    issue: Pick<ExternalIssue, "externalId" | "externalNumber" | "externalKey">,
    draft: IssueDraft,
  ): Promise<ExternalIssue>;
  /**
   * The issue as the service has it now (its state and title), for refreshing
   * without webhooks (refresh.server.ts); an issue the service no longer has
   * (deleted, or out of the token's sight) is a `not_found` TrackerError.
   */
  getIssue(
    credentials: TrackerCredentials,
    target: string,
    issue: Pick<ExternalIssue, "externalId" | "externalNumber" | "externalKey">,
  ): Promise<ExternalIssue>;
  /** True only for a request the service signed with `secret`. Never throws. */
  verifyWebhook(rawBody: string, headers: Headers, secret: string): Promise<boolean>;
  /** The issue change a (verified) webhook carries, or null for events that change no issue state. */
  parseWebhook(rawBody: string, headers: Headers): WebhookChange | null;
  /** The service's id of this delivery (unchanged when it retries or redelivers it), or null when the request has none. */
  deliveryId(headers: Headers): string | null;
}

export type TrackerErrorKind = "auth" | "rate_limited" | "not_found" | "invalid" | "unavailable";

/** A failure of a service, in plain words; `retryAfterSeconds` for rate limits. Adapters throw only this. */
export class TrackerError extends Error {
  constructor(
    readonly kind: TrackerErrorKind,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "TrackerError";
  }
}
