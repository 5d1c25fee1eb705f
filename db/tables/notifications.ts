/** Notifications, notification preferences, unsubscribe. */

export interface NotificationsTable {
  id: string;
  orgId: string | null;
  userId: string;
  /** What happened: mention, comment, share, assignment, status_change, export, invitation, approval, webhook_disabled, incoming, digest... */
  type: string;
  title: string;
  body: string | null;
  /** Where in the app the notification leads (a path such as /projects/{id}). */
  link: string | null;
  /** JSON object with the ids it concerns (and `eventId` when an event created it). */
  data: string;
  readAt: string | null;
  createdAt: string;
}

/** One row per user who changed a default; booleans stored as 0/1. */
export interface NotificationPreferencesTable {
  userId: string;
  emailNotifications: number;
  projectUpdates: number;
  teamActivity: number;
  commentMentions: number;
  exportNotifications: number;
  billingAlerts: number;
  weeklyDigest: number;
  securityAlerts: number;
  /** When the last weekly digest was e-mailed (guards against a replayed job). */
  digestSentAt: string | null;
  updatedAt: string;
}

/** Single-use unsubscribe links: only the SHA-256 of the token is stored. */
export interface UnsubscribeTokensTable {
  id: string;
  userId: string;
  /** A preference key (commentMentions ...) or emailNotifications for all e-mail. */
  category: string;
  tokenHash: string;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

export interface NotificationsTables {
  notifications: NotificationsTable;
  notificationPreferences: NotificationPreferencesTable;
  unsubscribeTokens: UnsubscribeTokensTable;
}
