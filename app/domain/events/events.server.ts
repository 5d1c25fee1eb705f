import type { Executor } from "~/db.server";
import { db } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import { registerJobHandler } from "~/jobs/worker.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { EventName } from "./catalogue";

export interface DomainEvent {
  id: string;
  orgId: string | null;
  name: EventName;
  data: Record<string, unknown>;
  actorId: string | null;
  createdAt: string;
}

/**
 * Records an event in the outbox inside the caller's transaction: committed
 * means it will be delivered; rolled back means it never happened.
 */
export async function emit(
  trx: Executor,
  event: { orgId: string | null; name: EventName; data: Record<string, unknown>; actorId?: string | null },
) {
  const id = newId();
  await trx
    .insertInto("events")
    .values({
      id,
      orgId: event.orgId,
      name: event.name,
      data: JSON.stringify(event.data),
      actorId: event.actorId ?? null,
      createdAt: nowIso(),
      processedAt: null,
    })
    .execute();
  await enqueue(trx, "events.dispatch", { eventId: id });
  return id;
}

type Listener = (event: DomainEvent) => Promise<void>;
const listeners = new Map<string, Listener>();

/** Subscribes a consumer (webhooks, notifications, metering...). Listeners must be idempotent. */
export function onEvent(name: string, listener: Listener) {
  listeners.set(name, listener);
}

registerJobHandler("events.dispatch", {
  async run({ eventId }: { eventId: string }) {
    const row = await db.selectFrom("events").selectAll().where("id", "=", eventId).executeTakeFirst();
    if (!row || row.processedAt) return;
    const event: DomainEvent = { ...row, name: row.name as EventName, data: JSON.parse(row.data) };
    for (const listener of listeners.values()) await listener(event);
    await db.updateTable("events").set({ processedAt: nowIso() }).where("id", "=", eventId).execute();
  },
});
