import crypto from "node:crypto";
import type { Job } from "#db/schema";
import { db, type Executor } from "~/db.server";
import type { JobHandler } from "~/jobs/types";
import { nowIso } from "~/utils/ids.server";
import { decrypt } from "~/utils/crypto.server";
import { ADMIN_ROLES } from "../actor";
import { eventMatches } from "../events/catalogue";
import type { Listener } from "../events/events.server";
import { notifyUsers } from "../notifications/notify.server";
import { guardedRequest } from "./outbound.server";
import { queueDelivery } from "./webhooks.server";

/**
 * Delivery of outgoing webhooks: every outbox event fans out to the matching
 * active webhooks of its organization (one delivery row per event and
 * webhook), and a persisted job POSTs each one, retried by the queue with
 * exponential backoff for 6 attempts in all (at-least-once).
 */

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Failed deliveries in a row after which a webhook is switched off. */
export const AUTO_DISABLE_AFTER = 10;

export const sign = (secret: string, body: string) => crypto.createHmac("sha256", secret).update(body).digest("hex");

/** Fans an outbox event out to its organization's matching webhooks (listed in app/jobs/handlers.server.ts). */
export const webhooksListener: Listener = async (event, trx) => {
  if (!event.orgId) return;
  const hooks = await trx.selectFrom("webhooks").select(["id", "orgId", "events"]).where("orgId", "=", event.orgId).where("isActive", "=", 1).execute();
  const matching = hooks.filter((h) => (JSON.parse(h.events) as string[]).some((p) => eventMatches(p, event.name)));
  if (!matching.length) return;
  const payload = JSON.stringify({ event: event.name, timestamp: event.createdAt, data: event.data });
  for (const hook of matching) {
    await queueDelivery(trx, { webhookId: hook.id, orgId: hook.orgId, eventId: event.id, event: event.name, payload });
  }
};

interface Attempt {
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** One POST through the guarded outbound request (./outbound.server); never throws (failures come back in `error`). */
export async function post(url: string, headers: Record<string, string>, body: string, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<Attempt> {
  const res = await guardedRequest(url, { method: "POST", headers, body, timeoutMs, keepBytes: 1024 });
  const attempt = (error: string | null): Attempt => ({ status: res.status, error, durationMs: res.durationMs });
  if (res.error !== null) return attempt(res.error);
  const status = res.status ?? 0;
  if (status >= 200 && status < 300) return attempt(null);
  const text = res.body.toString("utf8").slice(0, 200).trim();
  return attempt(`HTTP ${status}${text ? `: ${text}` : ""}`);
}

/** A delivery that will not be retried: mark it failed, count it, maybe switch the webhook off. */
async function giveUp(trx: Executor, deliveryId: string, webhookId: string) {
  await trx.updateTable("webhookDeliveries").set({ status: "failed" }).where("id", "=", deliveryId).execute();
  const hook = await trx
    .updateTable("webhooks")
    .set((eb) => ({ consecutiveFailures: eb("consecutiveFailures", "+", 1) }))
    .where("id", "=", webhookId)
    .returningAll()
    .executeTakeFirst();
  if (!hook || hook.isActive !== 1 || hook.consecutiveFailures < AUTO_DISABLE_AFTER) return;
  const reason = `Switched off after ${hook.consecutiveFailures} failed deliveries in a row`;
  await trx.updateTable("webhooks").set({ isActive: 0, disabledReason: reason, updatedAt: nowIso() }).where("id", "=", webhookId).execute();
  const admins = await trx
    .selectFrom("memberships")
    .select("userId")
    .where("orgId", "=", hook.orgId)
    .where("role", "in", [...ADMIN_ROLES])
    .execute();
  await notifyUsers(
    trx,
    admins.map((a) => a.userId),
    {
      orgId: hook.orgId,
      type: "webhook_disabled",
      title: `Webhook “${hook.name}” was switched off`,
      body: `${reason}. Check ${hook.url}, then switch it on again in Settings → Webhooks.`,
      link: `/settings/webhooks/${hook.id}`,
      data: { webhookId: hook.id, consecutiveFailures: hook.consecutiveFailures },
    },
  );
}

class DeliveryFailed extends Error {}

/** POSTs one delivery (listed in app/jobs/handlers.server.ts under DELIVERY_JOB). */
export const webhookDeliveryJob: JobHandler = {
  async run({ deliveryId }: { deliveryId: string }, job: Job) {
    const row = await db
      .selectFrom("webhookDeliveries as d")
      .innerJoin("webhooks as w", "w.id", "d.webhookId")
      .select(["d.id", "d.event", "d.payload", "d.status", "d.attempts", "d.webhookId", "d.createdAt"])
      .select(["w.url", "w.secretEncrypted", "w.signatureHeaderName", "w.isActive"])
      .where("d.id", "=", deliveryId)
      .executeTakeFirst();
    if (!row || row.status !== "pending") return;
    if (row.isActive !== 1 && row.event !== "webhook.test") {
      await db
        .updateTable("webhookDeliveries")
        .set({ status: "failed", error: "The webhook was switched off before delivery" })
        .where("id", "=", row.id)
        .execute();
      return;
    }
    const secret = decrypt(row.secretEncrypted) ?? "";
    const timestamp = (JSON.parse(row.payload) as { timestamp: string }).timestamp;
    const result = await post(
      row.url,
      {
        "Content-Type": "application/json",
        "User-Agent": "PRD-Studio-Webhooks/1",
        [row.signatureHeaderName]: sign(secret, row.payload),
        "x-webhook-event": row.event,
        "x-webhook-id": row.id,
        "x-webhook-timestamp": timestamp,
      },
      row.payload,
    );
    const now = nowIso();
    const delivered = result.error === null;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("webhookDeliveries")
        .set({
          attempts: row.attempts + 1,
          responseStatus: result.status,
          durationMs: result.durationMs,
          error: result.error,
          lastAttemptAt: now,
          ...(delivered ? { status: "delivered" as const, deliveredAt: now } : {}),
        })
        .where("id", "=", row.id)
        .execute();
      if (delivered) {
        await trx.updateTable("webhooks").set({ consecutiveFailures: 0, lastDeliveryAt: now }).where("id", "=", row.webhookId).execute();
      } else if (result.error?.startsWith("Refused:") || job.attempts >= job.maxAttempts) {
        // A refused target is not retried; the last attempt ends the delivery.
        await giveUp(trx, row.id, row.webhookId);
      }
    });
    if (!delivered && !result.error?.startsWith("Refused:")) throw new DeliveryFailed(result.error ?? "failed");
  },
  async onGiveUp({ deliveryId }: { deliveryId: string }) {
    // Reached only when the worker died during the last attempt.
    const row = await db.selectFrom("webhookDeliveries").select(["id", "webhookId", "status"]).where("id", "=", deliveryId).executeTakeFirst();
    if (!row || row.status !== "pending") return;
    await db.transaction().execute((trx) => giveUp(trx, row.id, row.webhookId));
  },
};
