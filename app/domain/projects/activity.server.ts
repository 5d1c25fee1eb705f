import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { emit } from "../events/events.server";
import type { EventName } from "../events/catalogue";

/**
 * Records one change to a project: an activity row (who, what, when) and,
 * when others care, an outbox event — both in the caller's transaction.
 */
export async function recordChange(
  trx: Executor,
  change: {
    project: { id: string; orgId: string };
    actor: Pick<Actor, "user"> | null;
    action: string;
    summary: string;
    data?: Record<string, unknown>;
    event?: EventName;
    actorName?: string;
  },
) {
  await trx
    .insertInto("projectActivity")
    .values({
      id: newId(),
      projectId: change.project.id,
      actorId: change.actor?.user.id ?? null,
      actorName: change.actor?.user.name ?? change.actorName ?? null,
      action: change.action,
      summary: change.summary,
      data: JSON.stringify(change.data ?? {}),
      createdAt: nowIso(),
    })
    .execute();
  if (change.event) {
    await emit(trx, {
      orgId: change.project.orgId,
      name: change.event,
      data: { projectId: change.project.id, ...change.data },
      actorId: change.actor?.user.id ?? null,
    });
  }
}

export async function listActivity(projectId: string, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("projectActivity")
      .selectAll()
      .where("projectId", "=", projectId)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom("projectActivity")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("projectId", "=", projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    activities: rows.map((r) => ({
      id: r.id,
      action: r.action,
      summary: r.summary,
      actor: r.actorId || r.actorName ? { id: r.actorId, name: r.actorName } : null,
      data: JSON.parse(r.data) as Record<string, unknown>,
      createdAt: r.createdAt,
    })),
    total: Number(count.n),
  };
}

export async function statusHistory(projectId: string) {
  const rows = await db
    .selectFrom("projectStatusHistory as h")
    .leftJoin("users as u", "u.id", "h.changedById")
    .select(["h.id", "h.fromStatus", "h.toStatus", "h.createdAt", "h.changedById", "u.name as changedByName"])
    .where("h.projectId", "=", projectId)
    .orderBy("h.createdAt", "asc")
    .orderBy("h.id", "asc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    from: r.fromStatus,
    to: r.toStatus,
    changedBy: r.changedById ? { id: r.changedById, name: r.changedByName } : null,
    createdAt: r.createdAt,
  }));
}
