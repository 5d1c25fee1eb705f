import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";

/**
 * The live documents in SQLite (migration 0021): per project a snapshot
 * (`prdLiveDocs.state`, a merged Yjs update) and the updates accepted since
 * (`prdLiveUpdates`, one row each, in order). An update is acknowledged only
 * after its row has committed, so a restart loses nothing acknowledged.
 * Compaction writes a new snapshot and deletes the rows it holds.
 */

const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export interface StoredLiveDoc {
  state: Uint8Array;
  versionId: string | null;
  dirty: boolean;
  updates: { id: number; data: Uint8Array; userId: string | null }[];
}

/** The stored live document of a project, or null when none was ever opened. */
export async function loadStored(projectId: string): Promise<StoredLiveDoc | null> {
  const doc = await db.selectFrom("prdLiveDocs").selectAll().where("projectId", "=", projectId).executeTakeFirst();
  if (!doc) return null;
  const updates = await db.selectFrom("prdLiveUpdates").select(["id", "data", "userId"]).where("projectId", "=", projectId).orderBy("id").execute();
  return { state: doc.state, versionId: doc.versionId, dirty: doc.dirty === 1, updates };
}

/**
 * Replaces the project's live document with `state` (a first seed, a reset,
 * a compaction): the snapshot row is written and the update rows up to
 * `upToId` (all of them when omitted) are deleted, in one transaction.
 */
export async function writeSnapshot(projectId: string, state: Uint8Array, meta: { versionId: string | null; dirty: boolean; upToId?: number }) {
  await db.transaction().execute(async (trx) => {
    const row = { state: toBuffer(state), versionId: meta.versionId, dirty: meta.dirty ? 1 : 0, updatedAt: nowIso() };
    await trx
      .insertInto("prdLiveDocs")
      .values({ projectId, ...row })
      .onConflict((oc) => oc.column("projectId").doUpdateSet(row))
      .execute();
    let remove = trx.deleteFrom("prdLiveUpdates").where("projectId", "=", projectId);
    if (meta.upToId !== undefined) remove = remove.where("id", "<=", meta.upToId);
    await remove.execute();
  });
}

/** Stores one accepted update (and marks the document dirty when asked) in one transaction; returns the row's id. */
export async function appendUpdate(projectId: string, update: Uint8Array, from: { clientId: string | null; userId: string | null; markDirty: boolean }) {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("prdLiveUpdates")
      .values({ projectId, data: toBuffer(update), clientId: from.clientId, userId: from.userId, createdAt: nowIso() })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (from.markDirty) await trx.updateTable("prdLiveDocs").set({ dirty: 1, updatedAt: nowIso() }).where("projectId", "=", projectId).execute();
    return id;
  });
}

/** How many update rows the project's live document has (tests and the operator's view). */
export async function storedUpdateCount(projectId: string) {
  const row = await db
    .selectFrom("prdLiveUpdates")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("projectId", "=", projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the project's stored live document, snapshot and updates (a reset: the next open seeds it from the saved PRD). */
export async function deleteStored(projectId: string) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("prdLiveUpdates").where("projectId", "=", projectId).execute();
    await trx.deleteFrom("prdLiveDocs").where("projectId", "=", projectId).execute();
  });
}
