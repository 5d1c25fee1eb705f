import type { Executor } from "~/db.server";
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

/** Called after an event is recorded (the job worker wakes to dispatch it soon). */
let onEmitted: () => void = () => {};
export function whenEmitted(callback: () => void) {
  onEmitted = callback;
}

/**
 * Records an event in the outbox inside the caller's transaction: committed
 * means it will be delivered; rolled back means it never happened. The
 * events table is the queue: dispatch.server.ts fans due events out to the
 * listeners in batches.
 */
export async function emit(trx: Executor, event: { orgId: string | null; name: EventName; data: Record<string, unknown>; actorId?: string | null }) {
  const id = newId();
  const now = nowIso();
  await trx
    .insertInto("events")
    .values({
      id,
      orgId: event.orgId,
      name: event.name,
      data: JSON.stringify(event.data),
      actorId: event.actorId ?? null,
      createdAt: now,
      processedAt: null,
      attempts: 0,
      lastError: null,
      runAt: now,
      failedAt: null,
    })
    .execute();
  onEmitted();
  return id;
}

/**
 * A consumer of events (webhooks, notifications, scheduled exports...). It
 * runs inside the dispatch batch's transaction and must use `trx` for every
 * query (the connection is held by the batch: `db` would wait for it
 * forever). Listeners must be idempotent: an event can be dispatched again.
 */
export type Listener = (event: DomainEvent, trx: Executor) => Promise<void>;
export const listeners = new Map<string, Listener>();

/** Subscribes a consumer. */
export function onEvent(name: string, listener: Listener) {
  listeners.set(name, listener);
}
