import type { Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";

export interface NotificationInput {
  orgId: string | null;
  /** mention, comment, share, assignment, status_change, export, invitation, approval, webhook_disabled, incoming, ... */
  type: string;
  title: string;
  body?: string | null;
  /** A path in the app, e.g. `/projects/{id}`. */
  link?: string | null;
  data?: Record<string, unknown>;
}

/**
 * Creates one in-app notification per user, inside the caller's transaction.
 * The one entry point every other area uses to notify people.
 * (Preferences and e-mail are applied here too; see the notifications area.)
 */
export async function notifyUsers(trx: Executor, userIds: string[], input: NotificationInput) {
  const unique = [...new Set(userIds)];
  if (!unique.length) return [];
  const createdAt = nowIso();
  const rows = unique.map((userId) => ({
    id: newId(),
    orgId: input.orgId,
    userId,
    type: input.type,
    title: input.title,
    body: input.body ?? null,
    link: input.link ?? null,
    data: JSON.stringify(input.data ?? {}),
    readAt: null,
    createdAt,
  }));
  await trx.insertInto("notifications").values(rows).execute();
  return rows.map((r) => r.id);
}
