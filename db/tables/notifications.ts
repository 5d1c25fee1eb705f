/** Notifications, notification preferences, unsubscribe (issue 9). */

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
  /** JSON object with the ids it concerns. */
  data: string;
  readAt: string | null;
  createdAt: string;
}

export interface NotificationsTables {
  notifications: NotificationsTable;
}
