import type { Selectable } from "kysely";
import type { NotificationsTable } from "#db/schema";
import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { notFound } from "../errors";
import type { ListNotificationsQuery } from "./notifications.schema";

/** A user's own notifications (across organizations: they are personal). */

export function presentNotification(n: Selectable<NotificationsTable>) {
  return {
    id: n.id,
    type: n.type,
    title: n.title,
    body: n.body,
    link: n.link,
    data: JSON.parse(n.data) as Record<string, unknown>,
    read: n.readAt !== null,
    readAt: n.readAt,
    orgId: n.orgId,
    createdAt: n.createdAt,
  };
}
export type Notification = ReturnType<typeof presentNotification>;

export async function unreadCount(userId: string) {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("userId", "=", userId)
    .where("readAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listNotifications(actor: Actor, query: ListNotificationsQuery) {
  let base = db.selectFrom("notifications").where("userId", "=", actor.user.id);
  if (query.unread) base = base.where("readAt", "is", null);
  const [rows, count, unread] = await Promise.all([
    base.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(query.limit).offset(query.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    unreadCount(actor.user.id),
  ]);
  return { notifications: rows.map(presentNotification), unreadCount: unread, total: Number(count.n) };
}

async function own(actor: Actor, notificationId: string) {
  const row = await db.selectFrom("notifications").selectAll().where("id", "=", notificationId).where("userId", "=", actor.user.id).executeTakeFirst();
  if (!row) throw notFound("Notification");
  return row;
}

export async function setNotificationRead(actor: Actor, notificationId: string, read: boolean) {
  const row = await own(actor, notificationId);
  const readAt = read ? (row.readAt ?? nowIso()) : null;
  await db.updateTable("notifications").set({ readAt }).where("id", "=", row.id).execute();
  return presentNotification({ ...row, readAt });
}

export async function deleteNotification(actor: Actor, notificationId: string) {
  const row = await own(actor, notificationId);
  await db.deleteFrom("notifications").where("id", "=", row.id).execute();
}

export async function markAllRead(actor: Actor) {
  const result = await db
    .updateTable("notifications")
    .set({ readAt: nowIso() })
    .where("userId", "=", actor.user.id)
    .where("readAt", "is", null)
    .executeTakeFirst();
  return { updated: Number(result.numUpdatedRows) };
}
