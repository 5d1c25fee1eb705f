import { appUrl } from "~/config.server";
import type { Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { queueEmail } from "../mail/mail.server";
import { notificationMessage } from "./emails";
import { PREFERENCE_LABELS, TYPE_CATEGORY } from "./notifications.schema";
import { preferencesFor } from "./preferences.server";
import { issueUnsubscribeLink } from "./unsubscribe.server";

export interface NotificationInput {
  orgId: string | null;
  /** mention, comment, share, assignment, status_change, export, invitation, approval, webhook_disabled, incoming, billing ... */
  type: string;
  title: string;
  body?: string | null;
  /** A path in the app, e.g. `/projects/{id}`. */
  link?: string | null;
  /** Ids it concerns; an `eventId` makes the call idempotent per (event, user). */
  data?: Record<string, unknown>;
  /** Set false to never e-mail this notification. */
  email?: boolean;
}

/**
 * Creates one in-app notification per user, inside the caller's transaction.
 * The one entry point every other area uses to notify people.
 * Preferences apply: a user who turned the type's category off gets nothing;
 * e-mail goes out only when the master switch and the category are both on.
 * Returns the ids of the notifications created.
 */
export async function notifyUsers(trx: Executor, userIds: string[], input: NotificationInput) {
  let unique = [...new Set(userIds.filter(Boolean))];
  if (!unique.length) return [];
  const eventId = typeof input.data?.eventId === "string" ? input.data.eventId : null;
  if (eventId) {
    const done = await trx
      .selectFrom("notifications")
      .select("userId")
      .where("userId", "in", unique)
      .where((eb) => eb(eb.fn("json_extract", ["data", eb.val("$.eventId")]), "=", eventId))
      .execute();
    const skip = new Set(done.map((d) => d.userId));
    unique = unique.filter((id) => !skip.has(id));
  }
  const category = TYPE_CATEGORY[input.type];
  const prefs = await preferencesFor(trx, unique);
  const recipients = unique.filter((id) => !category || prefs.get(id)![category]);
  if (!recipients.length) return [];
  const createdAt = nowIso();
  const rows = recipients.map((userId) => ({
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

  const emailTo = category && input.email !== false ? recipients.filter((id) => prefs.get(id)!.emailNotifications) : [];
  if (category && emailTo.length) {
    const users = await trx.selectFrom("users").select(["id", "name", "email"]).where("id", "in", emailTo).execute();
    for (const user of users) {
      const { url } = await issueUnsubscribeLink(trx, user.id, category);
      const message = notificationMessage({
        name: user.name,
        title: input.title,
        body: input.body ?? null,
        link: input.link ?? null,
        appUrl: appUrl(),
        categoryLabel: PREFERENCE_LABELS[category].label.toLowerCase(),
        unsubscribeUrl: url,
      });
      await queueEmail(trx, { to: user.email, ...message, kind: `notification.${input.type}`, orgId: input.orgId });
    }
  }
  return rows.map((r) => r.id);
}
