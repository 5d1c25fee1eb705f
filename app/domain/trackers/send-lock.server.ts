import { db } from "~/db.server";
import { nowIso, randomToken } from "~/utils/ids.server";
import { AppError } from "../errors";
import { TRACKER_INFO, type TrackerService } from "./adapter";

/**
 * One send of a project's stories to one tracker target at a time. Without
 * it, two sends started together (two tabs, an agent and a person) would both
 * see a story as not yet linked and both create its issue. A send takes a
 * lease on (project, service, target) before its first call to the service,
 * renews it after each story and releases it at the end; a lease left by a
 * crashed process expires and is taken over. The lease lives in the database,
 * so it holds across processes (on LiteFS every write, a send included, runs
 * on the primary).
 */

export const sendLease = {
  /** How long a lease lasts without renewal: longer than one story's calls, retry wait included. */
  ttlMs: 120_000,
};

const keyOf = (projectId: string, service: TrackerService, target: string) => `${projectId}\n${service}\n${target}`;

export interface SendLock {
  renew(): Promise<void>;
  release(): Promise<void>;
}

/** The lease, or 409 CONFLICT when another send to the same target is running. */
export async function acquireSendLock(projectId: string, service: TrackerService, target: string): Promise<SendLock> {
  const lockKey = keyOf(projectId, service, target);
  const holder = randomToken(16);
  const until = () => new Date(Date.now() + sendLease.ttlMs).toISOString();
  const taken = await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("trackerSendLocks").where("lockKey", "=", lockKey).where("expiresAt", "<=", nowIso()).execute();
    const inserted = await trx
      .insertInto("trackerSendLocks")
      .values({ lockKey, projectId, holder, expiresAt: until() })
      .onConflict((oc) => oc.column("lockKey").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  });
  if (!taken) {
    throw new AppError(
      "CONFLICT",
      409,
      `These stories are already being sent to ${TRACKER_INFO[service].name} (${target}); wait for that send to finish, then send again to update them`,
    );
  }
  const mine = () => db.updateTable("trackerSendLocks").where("lockKey", "=", lockKey).where("holder", "=", holder);
  return {
    renew: async () => {
      await mine().set({ expiresAt: until() }).execute();
    },
    release: async () => {
      await db.deleteFrom("trackerSendLocks").where("lockKey", "=", lockKey).where("holder", "=", holder).execute();
    },
  };
}
