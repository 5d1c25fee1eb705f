/** Incoming webhooks, feature flags, NPS answers. */

export type IncomingAction = "create_project" | "add_comment" | "notify_members";
export type IncomingEventStatus = "processed" | "failed" | "ignored";

export interface IncomingWebhooksTable {
  id: string;
  orgId: string;
  /** The admin who created it; actions run as this user. */
  createdById: string | null;
  name: string;
  /** sha256 of the token; the token itself is shown once (creation, rotation). */
  tokenHash: string;
  /** First characters of the token, to recognise it in lists. */
  tokenPrefix: string;
  action: IncomingAction;
  /** JSON: {projectId?} */
  config: string;
  isActive: number;
  lastEventAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface IncomingEventsTable {
  id: string;
  endpointId: string;
  orgId: string;
  /** The raw body as received (empty when refused as too large). */
  payload: string;
  contentType: string;
  status: IncomingEventStatus;
  error: string | null;
  /** JSON: what the action produced, e.g. {projectId} or {commentId}. */
  result: string | null;
  createdAt: string;
}

export interface FeatureFlagsTable {
  key: string;
  description: string;
  enabled: number;
  /** null: no percentage roll-out (the default decides). */
  rolloutPercentage: number | null;
  /** JSON: {allowUserIds, denyUserIds, allowOrgIds, denyOrgIds, plans} */
  rules: string;
  updatedById: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NpsResponsesTable {
  id: string;
  userId: string;
  orgId: string | null;
  /** null for a dismissal ("Not now"). */
  score: number | null;
  comment: string | null;
  dismissed: number;
  createdAt: string;
}

// Table interfaces of this area; each is listed in IncomingFlagsNpsTables (merged into Database in ../schema.ts).
export interface IncomingFlagsNpsTables {
  incomingWebhooks: IncomingWebhooksTable;
  incomingEvents: IncomingEventsTable;
  featureFlags: FeatureFlagsTable;
  npsResponses: NpsResponsesTable;
}
