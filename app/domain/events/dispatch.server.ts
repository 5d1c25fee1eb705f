import { sql } from "kysely";
import type { EventsTable } from "#db/schema";
import { db } from "~/db.server";
import { backoffMs } from "~/jobs/queue.server";
import { nowIso } from "~/utils/ids.server";
import type { EventName } from "./catalogue";
import { type DomainEvent, listeners } from "./events.server";
import type { Selectable } from "kysely";

/**
 * Dispatches due events to the listeners, many per write transaction (one
 * commit, so one fsync, per batch instead of three per event) and in time
 * slices: a slice stops taking events after SLICE_MS, commits, and the caller
 * yields to the event loop before the next one, so a backlog of thousands
 * never holds requests up for more than about one slice.
 *
 * Each event runs under a savepoint: a listener that throws rolls back that
 * event's work only; the event is retried with the job queue's backoff and
 * given up (`failedAt`) after MAX_ATTEMPTS. Delivery stays at-least-once:
 * listeners are idempotent.
 */

export const MAX_ATTEMPTS = 6;
/** Work per slice before it commits and hands the event loop back. */
export const SLICE_MS = 8;
/** Events read per slice at most. */
const BATCH = 500;

type EventRow = Pick<Selectable<EventsTable>, "id" | "orgId" | "name" | "data" | "actorId" | "createdAt" | "attempts" | "runAt">;

const toEvent = (row: EventRow): DomainEvent => ({
  id: row.id,
  orgId: row.orgId,
  name: row.name as EventName,
  data: JSON.parse(row.data),
  actorId: row.actorId,
  createdAt: row.createdAt,
});

/** One slice: the due events, oldest first, dispatched in one transaction until SLICE_MS is spent. Returns how many were handled. */
export async function dispatchEventSlice(now = new Date(), budgetMs = SLICE_MS): Promise<number> {
  const at = nowIso(now);
  const due = await db
    .selectFrom("events")
    .select(["id", "orgId", "name", "data", "actorId", "createdAt", "attempts", "runAt"])
    .where("processedAt", "is", null)
    .where("failedAt", "is", null)
    .where("runAt", "<=", at)
    .orderBy("runAt")
    .limit(BATCH)
    .execute();
  if (!due.length) return 0;
  const started = performance.now();
  let handled = 0;
  await db.transaction().execute(async (trx) => {
    for (const row of due) {
      if (handled > 0 && performance.now() - started > budgetMs) break;
      handled++;
      await sql`SAVEPOINT dispatch_event`.execute(trx);
      try {
        const event = toEvent(row);
        for (const listener of listeners.values()) await listener(event, trx);
        await trx.updateTable("events").set({ processedAt: at }).where("id", "=", row.id).execute();
        await sql`RELEASE dispatch_event`.execute(trx);
      } catch (error) {
        await sql`ROLLBACK TO dispatch_event`.execute(trx);
        await sql`RELEASE dispatch_event`.execute(trx);
        const attempts = row.attempts + 1;
        const giveUp = attempts >= MAX_ATTEMPTS;
        await trx
          .updateTable("events")
          .set({
            attempts,
            lastError: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
            runAt: giveUp ? row.runAt : nowIso(new Date(now.getTime() + backoffMs(attempts))),
            failedAt: giveUp ? at : null,
          })
          .where("id", "=", row.id)
          .execute();
        if (giveUp) console.error(`[events] gave up dispatching ${row.name} ${row.id} after ${attempts} attempts: ${String(error)}`);
      }
    }
  });
  return handled;
}

/** Hands the event loop to waiting I/O (requests) before going on. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Dispatches every due event, slice by slice, yielding between slices; returns how many. */
export async function drainEvents(options: { now?: Date; shouldContinue?: () => boolean } = {}) {
  let total = 0;
  for (;;) {
    if (options.shouldContinue && !options.shouldContinue()) break;
    const handled = await dispatchEventSlice(options.now);
    total += handled;
    if (handled === 0) break;
    await yieldToLoop();
  }
  return total;
}
