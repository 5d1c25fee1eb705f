/** Scheduled exports, their runs and delivery logs; workspace integrations. */

import type { TrackerService } from "./trackers";

/** Stored (canonical) schedule types; the API also accepts weekly_digest and custom_cron. */
export type ScheduleType = "weekly" | "on_status_change" | "cron" | "one_time";
export type ExportFileFormat = "pdf" | "html" | "docx" | "markdown";
export type ExportDeliveryStatus = "pending" | "delivered" | "failed";
export type IntegrationProvider = "notes" | "wiki" | "docs";

export interface ScheduledExportsTable {
  id: string;
  orgId: string;
  projectId: string | null;
  createdById: string | null;
  scheduleType: ScheduleType;
  format: ExportFileFormat;
  cronExpression: string | null;
  triggerStatus: string | null;
  scheduledAt: string | null;
  timezone: string;
  deliveryMethod: "email" | "webhook";
  /** JSON string[]. */
  recipients: string;
  webhookUrl: string | null;
  /** Encrypted (app/utils/crypto.server.ts). */
  webhookSecret: string | null;
  includeChangelog: number;
  customSubject: string | null;
  customMessage: string | null;
  isActive: number;
  lastRunAt: string | null;
  nextRunAt: string | null;
  /** The PRD text last delivered, for "changes since the last delivery". */
  lastDeliveredContent: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ScheduledExportRunsTable {
  id: string;
  scheduleId: string;
  /** The occurrence this run is for; unique per schedule, so a run is never doubled. */
  scheduledFor: string;
  reason: "schedule" | "manual" | "status_change" | "catch_up";
  status: "pending" | "done" | "failed";
  /** JSON string[]: the e-mails (one per recipient) made by the first attempt, reused by retries. */
  emailIds: string | null;
  /** The PRD text of the file being delivered; becomes lastDeliveredContent on success, then cleared. */
  snapshot: string | null;
  createdAt: string;
}

export interface ExportDeliveryLogsTable {
  id: string;
  scheduledExportId: string;
  runId: string | null;
  status: ExportDeliveryStatus;
  deliveryMethod: "email" | "webhook";
  /** JSON string[]. */
  recipients: string;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface IntegrationConnectionsTable {
  id: string;
  orgId: string;
  userId: string;
  provider: IntegrationProvider;
  /** Encrypted. */
  accessToken: string;
  /** Encrypted. */
  refreshToken: string | null;
  expiresAt: string | null;
  workspaceId: string | null;
  workspaceName: string | null;
  accountEmail: string | null;
  scopes: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OauthStatesTable {
  /** sha256 of the state sent to the provider. */
  stateHash: string;
  orgId: string;
  userId: string;
  /** The export integrations, Slack (app/domain/slack) and the issue trackers ("tracker:github", app/domain/trackers/oauth.server.ts). */
  provider: IntegrationProvider | "slack" | `tracker:${TrackerService}`;
  codeVerifier: string | null;
  redirectTo: string | null;
  /** The hashed id of the browser session that started the flow (null when started with an API key). */
  sessionId: string | null;
  expiresAt: string;
  createdAt: string;
}

// Table interfaces of this area; each is listed in ExportsTables (merged into Database in ../schema.ts).
export interface ExportsTables {
  scheduledExports: ScheduledExportsTable;
  scheduledExportRuns: ScheduledExportRunsTable;
  exportDeliveryLogs: ExportDeliveryLogsTable;
  integrationConnections: IntegrationConnectionsTable;
  oauthStates: OauthStatesTable;
}
