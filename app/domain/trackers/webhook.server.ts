import crypto from "node:crypto";
import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { decrypt } from "~/utils/crypto.server";
import { AppError, notFound } from "../errors";
import type { TrackerService } from "./adapter";
import { adapterFor } from "./connections.server";

/**
 * A tracker's webhook: the connection in the path says which secret must
 * have signed the body (verified by the service's adapter before anything is
 * read); a change of an issue linked to a story updates its state. Events
 * about other issues, or that change no state, are ignored.
 *
 * Replays (docs/trackers.md, "Replayed webhooks"): a signed delivery stays
 * valid forever, so each applied one is remembered for DELIVERY_MEMORY_MS by
 * the service's delivery id and by a SHA-256 of its body (the id header is not
 * signed: an attacker replaying a captured body could change it, the body they
 * cannot). A repeat is answered 200 `ignored: "duplicate"` and applied no
 * more; a delivery older than MAX_AGE_MS (which the memory may have
 * forgotten) is answered 200 `ignored: "too_old"`. 2xx so that the service
 * does not retry what it believes failed.
 */

/** How long an applied delivery is remembered. */
export const DELIVERY_MEMORY_MS = 7 * 24 * 60 * 60_000;
/** Older deliveries are not applied: shorter than the memory, so everything applied is still remembered. */
export const MAX_AGE_MS = 6 * 24 * 60 * 60_000;

export type WebhookReceipt = { received: true; updated: number; ignored?: "duplicate" | "too_old" };

const digest = (raw: string) => crypto.createHash("sha256").update(raw).digest("hex");

export async function receiveTrackerWebhook(service: TrackerService, connectionId: string, rawBody: string, headers: Headers): Promise<WebhookReceipt> {
  const conn = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).where("service", "=", service).executeTakeFirst();
  if (!conn) throw notFound("Tracker connection");
  const adapter = adapterFor(service);
  const secret = decrypt(conn.webhookSecretEncrypted) ?? "";
  if (!(await adapter.verifyWebhook(rawBody, headers, secret)))
    throw new AppError("UNAUTHORIZED", 401, "The webhook signature does not match this connection's secret");
  const change = adapter.parseWebhook(rawBody, headers);
  if (!change) return { received: true, updated: 0 };
  const now = Date.now();
  if (change.sentAt !== undefined && now - change.sentAt > MAX_AGE_MS) return { received: true, updated: 0, ignored: "too_old" };
  const id = adapter.deliveryId(headers);
  const keys = [`body:${digest(rawBody)}`, ...(id ? [`id:${id.slice(0, 200)}`] : [])];
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("trackerWebhookDeliveries")
      .where("receivedAt", "<", nowIso(new Date(now - DELIVERY_MEMORY_MS)))
      .execute();
    let repeat = false;
    for (const deliveryKey of keys) {
      const inserted = await trx
        .insertInto("trackerWebhookDeliveries")
        .values({ connectionId: conn.id, deliveryKey, receivedAt: nowIso(new Date(now)) })
        .onConflict((oc) => oc.columns(["connectionId", "deliveryKey"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) repeat = true;
    }
    if (repeat) return { received: true as const, updated: 0, ignored: "duplicate" as const };
    const result = await trx
      .updateTable("trackerIssues")
      .set({ state: change.state, ...(change.title ? { title: change.title.slice(0, 250) } : {}), lastSyncedAt: nowIso() })
      .where("orgId", "=", conn.orgId)
      .where("service", "=", service)
      .where("externalId", "=", change.externalId)
      .executeTakeFirst();
    return { received: true as const, updated: Number(result.numUpdatedRows) };
  });
}
