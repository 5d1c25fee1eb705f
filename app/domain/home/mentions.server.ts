import { sql } from "kysely";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { readableProjects } from "../projects/access.server";
import { SHOWN } from "./waiting.server";

/**
 * "Mentions" on the Home page: comments that mention the actor on projects of
 * this organization they may still read, newest first, from the per-person
 * index of mentions (commentMentions, migration 0023), merged with the
 * actor's unread mention notifications of this organization (which also
 * cover mentions older than the list). An item is `unread` while its
 * notification is; unread items come first.
 */

const EXCERPT = 160;
const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text);

export interface MentionItem {
  /** The comment (or, for a notification whose comment is gone, the notification). */
  id: string;
  project: { id: string; name: string };
  /** "Ada mentioned you on Checkout". */
  title: string;
  excerpt: string | null;
  createdAt: string;
  unread: boolean;
  /** The comment's thread on the project's Document page. */
  link: string;
}

export async function recentMentions(actor: Actor) {
  const me = actor.user.id;
  const unreadBase = db
    .selectFrom("notifications as n")
    // CROSS JOIN: the person's notifications stay the outer loop (notifications_user), each finding its project by id.
    .crossJoin("projects as p")
    .where(sql<boolean>`p.id = json_extract(n.data, '$.projectId')`)
    .where("n.userId", "=", me)
    .where("n.orgId", "=", actor.org.id)
    .where("n.type", "=", "mention")
    .where("n.readAt", "is", null)
    .where(readableProjects(actor));
  const [comments, unread, unreadCount] = await Promise.all([
    db
      .selectFrom("commentMentions as m")
      // CROSS JOIN keeps this order: the person's mentions (commentMentions_user), then each comment and its project by id.
      .crossJoin("comments as c")
      .crossJoin("projects as p")
      .whereRef("c.id", "=", "m.commentId")
      .whereRef("p.id", "=", "c.projectId")
      .leftJoin("users as u", "u.id", "c.userId")
      .select(["c.id", "c.parentId", "c.content", "m.createdAt", "p.id as projectId", "p.name as projectName", "u.name as authorName"])
      .where("m.userId", "=", me)
      .where("c.deletedAt", "is", null)
      .where((eb) => eb.or([eb("c.userId", "is", null), eb("c.userId", "!=", me)]))
      .where(readableProjects(actor))
      .orderBy("m.createdAt", "desc")
      .orderBy("m.commentId", "desc")
      .limit(SHOWN)
      .execute(),
    unreadBase
      .select(["n.id", "n.title", "n.body", "n.link", "n.createdAt", "p.id as projectId", "p.name as projectName"])
      .select(sql<string | null>`json_extract(n.data, '$.commentId')`.as("commentId"))
      .orderBy("n.createdAt", "desc")
      .orderBy("n.id", "desc")
      .limit(SHOWN)
      .execute(),
    unreadBase.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const unreadComments = new Set(unread.map((n) => n.commentId).filter(Boolean));
  const items: MentionItem[] = comments.map((c) => ({
    id: c.id,
    project: { id: c.projectId, name: c.projectName },
    title: `${c.authorName ?? "A former member"} mentioned you on ${c.projectName}`,
    excerpt: excerpt(c.content),
    createdAt: c.createdAt,
    unread: unreadComments.has(c.id),
    link: `/projects/${c.projectId}#comment-${c.parentId ?? c.id}`,
  }));
  const listed = new Set(items.map((i) => i.id));
  for (const n of unread) {
    if (n.commentId && listed.has(n.commentId)) continue;
    items.push({
      id: n.commentId ?? n.id,
      project: { id: n.projectId, name: n.projectName },
      title: n.title,
      excerpt: n.body ? excerpt(n.body) : null,
      createdAt: n.createdAt,
      unread: true,
      link: n.link?.startsWith("/") ? n.link : `/projects/${n.projectId}`,
    });
  }
  items.sort((a, b) => Number(b.unread) - Number(a.unread) || b.createdAt.localeCompare(a.createdAt));
  return { items: items.slice(0, SHOWN), unread: Number(unreadCount.n) };
}
