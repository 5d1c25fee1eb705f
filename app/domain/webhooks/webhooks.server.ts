import crypto from "node:crypto";
import type { Selectable } from "kysely";
import type { WebhookDeliveriesTable, WebhooksTable } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import { encrypt } from "~/utils/crypto.server";
import { newId, nowIso } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { assertWithinLimit, currentUsage } from "../billing/limits.server";
import { limitFor } from "../billing/plans";
import { notFound, validationError } from "../errors";
import { literalHostProblem } from "./address.server";
import type { CreateWebhookInput, UpdateWebhookInput } from "./webhooks.schema";

/** Outgoing webhooks: CRUD, test sends and the delivery log. Delivery itself: ./delivery.server. */

type WebhookRow = Selectable<WebhooksTable>;
type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export const DELIVERY_JOB = "webhooks.deliver";
/** 1 try + 5 retries with the queue's exponential backoff (30 s, 1, 2, 4, 8 min). */
export const DELIVERY_ATTEMPTS = 6;

export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    isActive: row.isActive === 1,
    signatureHeaderName: row.signatureHeaderName,
    secretHint: row.secretHint,
    consecutiveFailures: row.consecutiveFailures,
    disabledReason: row.disabledReason,
    lastDeliveryAt: row.lastDeliveryAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type WebhookOut = ReturnType<typeof presentWebhook>;

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    webhookId: row.webhookId,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    error: row.error,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    deliveredAt: row.deliveredAt,
  };
}
export type DeliveryOut = ReturnType<typeof presentDelivery>;

/** Enough to tell secrets apart, never enough to help guess one: a generated secret's `whsec_` prefix and the last 4 characters. */
const hint = (secret: string) => `${secret.startsWith("whsec_") ? "whsec_" : ""}…${secret.slice(-4)}`;

function checkUrl(url: string) {
  const problem = literalHostProblem(new URL(url));
  if (problem) throw validationError("url", problem);
}

async function loadWebhook(executor: Executor, actor: Actor, webhookId: string) {
  const row = await executor.selectFrom("webhooks").selectAll().where("id", "=", webhookId).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!row) throw notFound("Webhook");
  return row;
}

function audit(trx: Executor, actor: Actor, action: string, row: WebhookRow, metadata: Record<string, unknown> = {}) {
  return writeAudit(trx, {
    orgId: actor.org.id,
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action,
    category: "integration",
    severity: action.endsWith(".deleted") ? "warning" : "info",
    targetType: "webhook",
    targetId: row.id,
    ip: actor.ip,
    userAgent: actor.userAgent,
    metadata: { name: row.name, url: row.url, ...metadata },
  });
}

export async function listWebhooks(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  const rows = await db.selectFrom("webhooks").selectAll().where("orgId", "=", actor.org.id).orderBy("createdAt", "desc").execute();
  return rows.map(presentWebhook);
}

export async function webhookQuota(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  return { used: await currentUsage(db, actor.org.id, "webhooks"), limit: limitFor(actor.org.plan, "webhooks") };
}

export async function getWebhook(actor: Actor, webhookId: string) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  return presentWebhook(await loadWebhook(db, actor, webhookId));
}

/** Creates a webhook; the signing `secret` is returned here once and never again. */
export async function createWebhook(actor: Actor, input: CreateWebhookInput) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  checkUrl(input.url);
  const secret = input.secret ?? `whsec_${crypto.randomBytes(24).toString("hex")}`;
  const now = nowIso();
  const row: WebhookRow = {
    id: newId(),
    orgId: actor.org.id,
    name: input.name,
    url: input.url,
    events: JSON.stringify(input.events),
    secretEncrypted: encrypt(secret),
    secretHint: hint(secret),
    isActive: input.isActive ? 1 : 0,
    signatureHeaderName: input.signatureHeaderName,
    consecutiveFailures: 0,
    disabledReason: null,
    lastDeliveryAt: null,
    createdById: actor.user.id,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction().execute(async (trx) => {
    await assertWithinLimit(trx, actor.org, "webhooks");
    await trx.insertInto("webhooks").values(row).execute();
    await audit(trx, actor, "webhook.created", row, { events: input.events });
  });
  return { ...presentWebhook(row), secret };
}

export async function updateWebhook(actor: Actor, webhookId: string, input: UpdateWebhookInput) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  if (input.url !== undefined) checkUrl(input.url);
  return db.transaction().execute(async (trx) => {
    const row = await loadWebhook(trx, actor, webhookId);
    const changes: Partial<WebhookRow> = { updatedAt: nowIso() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.url !== undefined) changes.url = input.url;
    if (input.events !== undefined) changes.events = JSON.stringify(input.events);
    if (input.signatureHeaderName !== undefined) changes.signatureHeaderName = input.signatureHeaderName;
    if (input.secret !== undefined) {
      changes.secretEncrypted = encrypt(input.secret);
      changes.secretHint = hint(input.secret);
    }
    if (input.isActive !== undefined) {
      changes.isActive = input.isActive ? 1 : 0;
      // Switching on (again) starts a fresh failure count.
      if (input.isActive) Object.assign(changes, { consecutiveFailures: 0, disabledReason: null });
    }
    await trx.updateTable("webhooks").set(changes).where("id", "=", row.id).execute();
    const next = { ...row, ...changes };
    const fields = Object.keys(input).filter((k) => k !== "secret");
    await audit(trx, actor, "webhook.updated", next, { fields, secretRotated: input.secret !== undefined });
    return presentWebhook(next);
  });
}

export async function deleteWebhook(actor: Actor, webhookId: string) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  await db.transaction().execute(async (trx) => {
    const row = await loadWebhook(trx, actor, webhookId);
    await trx.deleteFrom("webhooks").where("id", "=", row.id).execute();
    await audit(trx, actor, "webhook.deleted", row);
  });
}

/** Inserts a pending delivery and queues its job. */
export async function queueDelivery(trx: Executor, delivery: { webhookId: string; orgId: string; eventId: string | null; event: string; payload: string }) {
  const row: DeliveryRow = {
    id: newId(),
    ...delivery,
    status: "pending",
    attempts: 0,
    responseStatus: null,
    durationMs: null,
    error: null,
    createdAt: nowIso(),
    lastAttemptAt: null,
    deliveredAt: null,
  };
  const inserted = await trx
    .insertInto("webhookDeliveries")
    .values(row)
    .onConflict((oc) => oc.columns(["eventId", "webhookId"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
  await enqueue(trx, DELIVERY_JOB, { deliveryId: row.id }, { maxAttempts: DELIVERY_ATTEMPTS });
  return row;
}

/** Queues a `webhook.test` delivery to this webhook only (even when it is switched off). */
export async function sendTestDelivery(actor: Actor, webhookId: string) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  const row = await db.transaction().execute(async (trx) => {
    const webhook = await loadWebhook(trx, actor, webhookId);
    const payload = JSON.stringify({
      event: "webhook.test",
      timestamp: nowIso(),
      data: { webhookId: webhook.id, name: webhook.name, message: "This is a test delivery from PRD Studio." },
    });
    return (await queueDelivery(trx, { webhookId: webhook.id, orgId: webhook.orgId, eventId: null, event: "webhook.test", payload }))!;
  });
  return presentDelivery(row);
}

export async function listDeliveries(actor: Actor, webhookId: string, limit = 50) {
  requireRole(actor, ADMIN_ROLES, "manage webhooks");
  await loadWebhook(db, actor, webhookId);
  const rows = await db
    .selectFrom("webhookDeliveries")
    .selectAll()
    .where("webhookId", "=", webhookId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(presentDelivery);
}
