/** Issue-tracker sync (migration 0024_trackers, docs/trackers.md). */

export type TrackerService = "github" | "linear" | "jira";
export type TrackerAuthKind = "token" | "oauth";
export type TrackerIssueState = "open" | "in_progress" | "done";

export interface TrackerConnectionsTable {
  id: string;
  orgId: string;
  service: TrackerService;
  authKind: TrackerAuthKind;
  /** AES-256-GCM (utils/crypto.server): the pasted token, or the OAuth access token. */
  tokenEncrypted: string;
  /** OAuth only: the refresh token, AES-256-GCM encrypted (migration 0027). */
  refreshTokenEncrypted: string | null;
  /** OAuth only: when the access token expires (ISO); null when it does not (migration 0027). */
  tokenExpiresAt: string | null;
  /** Whose token it is at the service ("octocat"). */
  accountLabel: string;
  /** JSON object of non-secret, service-specific settings (a Jira site URL...). */
  settings: string;
  /** The secret the service signs its webhooks with, AES-256-GCM encrypted. */
  webhookSecretEncrypted: string;
  lastError: string | null;
  /**
   * JSON array of `{id, name}`: the targets an owner or admin allows stories
   * to be sent to; null while none was chosen (any target the token reaches). Migration 0029.
   */
  allowedTargets: string | null;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TrackerIssuesTable {
  id: string;
  orgId: string;
  projectId: string;
  connectionId: string | null;
  service: TrackerService;
  /** A repository (owner/name), a Linear team id or a Jira project key. */
  target: string;
  /** Stable hash of the story's epic and title: unique per (projectId, service, target). */
  storyKey: string;
  section: string | null;
  externalId: string;
  externalNumber: number | null;
  /** What people call it: owner/repo#12, ENG-42, ABC-7. */
  externalKey: string;
  url: string;
  title: string;
  state: TrackerIssueState;
  lastSyncedAt: string;
  createdAt: string;
}

/** A send's lease on (project, service, target): one send at a time (migration 0028). */
export interface TrackerSendLocksTable {
  lockKey: string;
  projectId: string;
  holder: string;
  expiresAt: string;
}

/** A webhook delivery a connection already applied: its delivery id or body digest, kept 7 days (migration 0029). */
export interface TrackerWebhookDeliveriesTable {
  connectionId: string;
  /** `id:<the service's delivery id>` or `body:<SHA-256 of the signed body>`. */
  deliveryKey: string;
  receivedAt: string;
}

export interface TrackersTables {
  trackerConnections: TrackerConnectionsTable;
  trackerIssues: TrackerIssuesTable;
  trackerSendLocks: TrackerSendLocksTable;
  trackerWebhookDeliveries: TrackerWebhookDeliveriesTable;
}
