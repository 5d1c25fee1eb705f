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
 */
export async function receiveTrackerWebhook(service: TrackerService, connectionId: string, rawBody: string, headers: Headers) {
  const conn = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).where("service", "=", service).executeTakeFirst();
  if (!conn) throw notFound("Tracker connection");
  const adapter = adapterFor(service);
  const secret = decrypt(conn.webhookSecretEncrypted) ?? "";
  if (!(await adapter.verifyWebhook(rawBody, headers, secret)))
    throw new AppError("UNAUTHORIZED", 401, "The webhook signature does not match this connection's secret");
  const change = adapter.parseWebhook(rawBody, headers);
  if (!change) return { received: true as const, updated: 0 };
  const result = await db
    .updateTable("trackerIssues")
    .set({ state: change.state, ...(change.title ? { title: change.title.slice(0, 250) } : {}), lastSyncedAt: nowIso() })
    .where("orgId", "=", conn.orgId)
    .where("service", "=", service)
    .where("externalId", "=", change.externalId)
    .executeTakeFirst();
  return { received: true as const, updated: Number(result.numUpdatedRows) };
}
