import { appUrl } from "~/config.server";
import { db } from "~/db.server";
import type { JobHandler } from "~/jobs/types";
import { nowIso } from "~/utils/ids.server";
import { queueEmail } from "../mail/mail.server";
import { readableProjects } from "../projects/access.server";
import { digestMessage } from "./emails";
import { issueUnsubscribeLink } from "./unsubscribe.server";

export const WEEKLY_DIGEST_JOB = "notifications.weekly-digest";
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** A digest is not sent twice within this window, so a replayed job is harmless. */
const RESEND_GUARD_MS = 6 * 24 * 60 * 60 * 1000;

/**
 * E-mails every user with weeklyDigest and emailNotifications on a summary of
 * their unread notifications and the last 7 days of activity on projects they
 * created or are assigned to and may still read (readableProjects, with their
 * role in each organization). Users with nothing to report get no e-mail.
 * Returns how many digests were queued.
 */
export async function sendWeeklyDigests(now = new Date()) {
  const since = nowIso(new Date(now.getTime() - WEEK_MS));
  const guard = nowIso(new Date(now.getTime() - RESEND_GUARD_MS));
  const users = await db
    .selectFrom("notificationPreferences as p")
    .innerJoin("users as u", "u.id", "p.userId")
    .select(["u.id", "u.name", "u.email"])
    .where("p.weeklyDigest", "=", 1)
    .where("p.emailNotifications", "=", 1)
    .where((eb) => eb.or([eb("p.digestSentAt", "is", null), eb("p.digestSentAt", "<", guard)]))
    .execute();
  let sent = 0;
  for (const user of users) {
    const unread = await db
      .selectFrom("notifications")
      .select(["title", "createdAt"])
      .where("userId", "=", user.id)
      .where("readAt", "is", null)
      .orderBy("createdAt", "desc")
      .execute();
    // Only projects the user may still read, in each organization they belong to, with the role they have there.
    const memberships = await db.selectFrom("memberships").select(["orgId", "role"]).where("userId", "=", user.id).execute();
    const activity = await db
      .selectFrom("projectActivity as a")
      .innerJoin("projects as p", "p.id", "a.projectId")
      .select(["p.name as projectName", "a.summary", "a.createdAt"])
      .where((eb) => eb.or([eb("p.createdById", "=", user.id), eb("p.assignedToId", "=", user.id)]))
      .where((eb) => eb.or(memberships.map((m) => readableProjects({ user, org: { id: m.orgId }, role: m.role }))))
      .where("a.createdAt", ">=", since)
      .where((eb) => eb.or([eb("a.actorId", "is", null), eb("a.actorId", "!=", user.id)]))
      .orderBy("a.createdAt", "desc")
      .execute();
    if (!unread.length && !activity.length) continue;
    await db.transaction().execute(async (trx) => {
      const { url } = await issueUnsubscribeLink(trx, user.id, "weeklyDigest", now);
      const message = digestMessage({
        name: user.name,
        unread: unread.slice(0, 10),
        unreadCount: unread.length,
        activity: activity.slice(0, 10),
        activityCount: activity.length,
        appUrl: appUrl(),
        unsubscribeUrl: url,
      });
      await queueEmail(trx, { to: user.email, ...message, kind: "notification.digest" });
      await trx
        .updateTable("notificationPreferences")
        .set({ digestSentAt: nowIso(now) })
        .where("userId", "=", user.id)
        .execute();
    });
    sent++;
  }
  return sent;
}

/** The weekly digest job (listed in app/jobs/handlers.server.ts; the scheduler enqueues it). */
export const weeklyDigestJob: JobHandler = {
  async run(payload: { scheduledFor?: string }) {
    await sendWeeklyDigests(payload.scheduledFor ? new Date(payload.scheduledFor) : new Date());
  },
};
