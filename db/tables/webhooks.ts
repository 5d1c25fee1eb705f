/** Outgoing webhooks and their delivery log. */

export interface WebhooksTable {
  id: string;
  orgId: string;
  name: string;
  url: string;
  /** JSON array of subscriptions: catalogue names, groups such as `project.*`, or `*`. */
  events: string;
  /** The HMAC signing secret, AES-256-GCM encrypted (utils/crypto.server). */
  secretEncrypted: string;
  /** A recognisable, unusable hint of the secret (`whsec_…a1b2`). */
  secretHint: string;
  /** 0/1 */
  isActive: number;
  /** Lower-case header name that carries the signature. */
  signatureHeaderName: string;
  /** Failed deliveries in a row (reset by a success or by re-enabling). */
  consecutiveFailures: number;
  /** Why the webhook was switched off automatically; null when active or disabled by hand. */
  disabledReason: string | null;
  lastDeliveryAt: string | null;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface WebhookDeliveriesTable {
  id: string;
  webhookId: string;
  orgId: string;
  /** The outbox event it carries; null for `webhook.test` sends. Unique with webhookId. */
  eventId: string | null;
  event: string;
  /** The exact JSON body sent on every attempt (so the signature is stable). */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
}
