import type { Selectable } from "kysely";
import type { CommentsTable } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, isAdmin } from "../actor";
import { forbidden, notFound, validationError } from "../errors";
import { projectAccess, readableProjects, requireComment } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import type { CreateCommentInput, UpdateCommentInput } from "./collaboration.schema";

/**
 * Comments on a project, threaded one level deep: a reply to a reply joins
 * the top-level thread. `@ana@example.com` mentions a member of the project's
 * organization; anything else after `@` stays plain text.
 */

const MENTION = /(?:^|[^\w@])@([^\s@]+@[^\s@]+)/g;

/** E-mail addresses written as `@address` in the text, lowercased, without trailing punctuation. */
export function mentionedEmails(content: string) {
  const out = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    const address = match[1]!.replace(/[.,;:!?)\]}>'"]+$/, "").toLowerCase();
    if (/^[^@]+@[^@]+\.[^@]+$/.test(address)) out.add(address);
  }
  return [...out];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Members written as `@Full Name` or `@First` (when no other member shares
 * that first name), case-insensitive, not followed by more letters. The
 * longest name wins, so `@Ada Lovelace` is never read as `@Ada`.
 */
export function mentionedMembers(content: string, members: { id: string; name: string }[]) {
  if (!/@\p{L}/u.test(content)) return [];
  const firstNames = new Map<string, number>();
  for (const m of members) {
    const first = m.name.trim().split(/\s+/)[0]!.toLowerCase();
    firstNames.set(first, (firstNames.get(first) ?? 0) + 1);
  }
  const candidates: { id: string; name: string }[] = [];
  for (const m of members) {
    const full = m.name.trim();
    if (!full) continue;
    candidates.push({ id: m.id, name: full });
    const first = full.split(/\s+/)[0]!;
    if (first !== full && firstNames.get(first.toLowerCase()) === 1) candidates.push({ id: m.id, name: first });
  }
  candidates.sort((x, y) => y.name.length - x.name.length);
  let rest = content;
  const found = new Set<string>();
  for (const { id, name } of candidates) {
    const pattern = new RegExp(`(^|[^\\p{L}\\p{N}_@])@${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, "giu");
    // A longer name found first is blanked out, so `@Ada Lovelace` is not also `@Ada`.
    rest = rest.replace(pattern, (match, before: string) => {
      found.add(id);
      return before + " ".repeat(match.length - before.length);
    });
  }
  return [...found];
}

/**
 * Members of the organization mentioned by e-mail (`@ada@example.com`) or by
 * name (`@Ada Lovelace`, `@Ada`), split by whether they may read the project
 * (the one visibility rule, `readableProjects`): only readers are recorded as
 * mentioned and notified, so a mention never carries the project's name or
 * the comment to someone who cannot open it. The others are returned for the
 * author to be told.
 */
async function resolveMentions(executor: Executor, project: { id: string; orgId: string }, content: string) {
  const none = { userIds: [] as string[], notNotified: [] as { id: string; name: string }[] };
  if (!content.includes("@")) return none;
  const members = await executor
    .selectFrom("users as u")
    .innerJoin("memberships as m", "m.userId", "u.id")
    .select(["u.id", "u.name", "u.email", "m.role"])
    .where("m.orgId", "=", project.orgId)
    .orderBy("u.email")
    .execute();
  const emails = new Set(mentionedEmails(content));
  const byEmail = members.filter((m) => emails.has(m.email.toLowerCase())).map((m) => m.id);
  const ids = [...new Set([...byEmail, ...mentionedMembers(content, members)])];
  if (!ids.length) return none;
  const byId = new Map(members.map((m) => [m.id, m]));
  const result = { userIds: [] as string[], notNotified: [] as { id: string; name: string }[] };
  for (const id of ids) {
    const member = byId.get(id)!;
    const readable = await executor
      .selectFrom("projects as p")
      .select("p.id")
      .where("p.id", "=", project.id)
      .where(readableProjects({ user: { id }, org: { id: project.orgId }, role: member.role }))
      .executeTakeFirst();
    if (readable) result.userIds.push(id);
    else result.notNotified.push({ id, name: member.name });
  }
  return result;
}

function commentQuery(executor: Executor, projectId: string) {
  return executor
    .selectFrom("comments as c")
    .leftJoin("users as u", "u.id", "c.userId")
    .selectAll("c")
    .select(["u.name as userName", "u.email as userEmail"])
    .where("c.projectId", "=", projectId);
}
type CommentRow = Selectable<CommentsTable>;
type Row = Awaited<ReturnType<ReturnType<typeof commentQuery>["executeTakeFirstOrThrow"]>>;

async function present(executor: Executor, rows: Row[]) {
  const ids = new Set<string>();
  for (const r of rows) if (!r.deletedAt) for (const id of JSON.parse(r.mentions) as string[]) ids.add(id);
  const names = new Map<string, string>();
  if (ids.size) {
    const users = await executor.selectFrom("users").select(["id", "name"]).where("id", "in", [...ids]).execute();
    for (const u of users) names.set(u.id, u.name);
  }
  return rows.map((r) => {
    const deleted = r.deletedAt !== null;
    return {
      id: r.id,
      content: deleted ? "" : r.content,
      parentId: r.parentId,
      section: r.section,
      blockId: r.blockId,
      mentions: deleted
        ? []
        : (JSON.parse(r.mentions) as string[]).filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
      user: !deleted && r.userId ? { id: r.userId, name: r.userName!, email: r.userEmail! } : null,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      editedAt: r.editedAt,
      deleted,
    };
  });
}
export type CommentOut = Awaited<ReturnType<typeof present>>[number];

async function presentOne(executor: Executor, projectId: string, commentId: string) {
  const row = await commentQuery(executor, projectId).where("c.id", "=", commentId).executeTakeFirstOrThrow();
  return (await present(executor, [row]))[0]!;
}

/** Top-level comments oldest first, each with its replies (oldest first). */
export async function listComments(actor: Actor, projectId: string) {
  await projectAccess(actor, projectId);
  const rows = await commentQuery(db, projectId).orderBy("c.createdAt", "asc").orderBy("c.id", "asc").execute();
  const all = await present(db, rows);
  const replies = new Map<string, CommentOut[]>();
  for (const c of all) if (c.parentId) replies.set(c.parentId, [...(replies.get(c.parentId) ?? []), c]);
  return all.filter((c) => !c.parentId).map((c) => ({ ...c, replies: replies.get(c.id) ?? [] }));
}

async function findComment(executor: Executor, projectId: string, commentId: string): Promise<CommentRow> {
  const row = await executor
    .selectFrom("comments")
    .selectAll()
    .where("id", "=", commentId)
    .where("projectId", "=", projectId)
    .executeTakeFirst();
  if (!row || row.deletedAt) throw notFound("Comment");
  return row;
}

export async function createComment(actor: Actor, projectId: string, input: CreateCommentInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireComment(actor, projectId, trx);
    let thread: CommentRow | undefined;
    if (input.parentId) {
      const parent = await trx
        .selectFrom("comments")
        .selectAll()
        .where("id", "=", input.parentId)
        .where("projectId", "=", project.id)
        .executeTakeFirst();
      if (!parent) throw validationError("parentId", "No comment with that id in this project");
      thread = parent.parentId
        ? await trx.selectFrom("comments").selectAll().where("id", "=", parent.parentId).executeTakeFirstOrThrow()
        : parent;
    }
    const { userIds: mentionedUserIds, notNotified } = await resolveMentions(trx, project, input.content);
    const now = nowIso();
    const comment = {
      id: newId(),
      projectId: project.id,
      userId: actor.user.id,
      parentId: thread?.id ?? null,
      content: input.content,
      // A reply without its own anchor belongs where its thread is anchored.
      section: input.section ?? thread?.section ?? null,
      blockId: input.blockId ?? thread?.blockId ?? null,
      mentions: JSON.stringify(mentionedUserIds),
      createdAt: now,
      updatedAt: now,
      editedAt: null,
      deletedAt: null,
    };
    await trx.insertInto("comments").values(comment).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "comment.created",
      summary: thread ? `${actor.user.name} replied to a comment` : `${actor.user.name} commented`,
      data: { commentId: comment.id, parentId: comment.parentId, section: comment.section, mentionedUserIds },
      event: "comment.created",
    });
    return { comment: await presentOne(trx, project.id, comment.id), notNotified };
  });
}

/** Only the author edits a comment; mentions are resolved again from the new text. */
export async function updateComment(actor: Actor, projectId: string, commentId: string, input: UpdateCommentInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireComment(actor, projectId, trx);
    const comment = await findComment(trx, project.id, commentId);
    if (comment.userId !== actor.user.id) throw forbidden("Only its author may edit a comment");
    if (comment.content === input.content) return { comment: await presentOne(trx, project.id, comment.id), notNotified: [] };
    const { userIds: mentionedUserIds, notNotified } = await resolveMentions(trx, project, input.content);
    const now = nowIso();
    await trx
      .updateTable("comments")
      .set({ content: input.content, mentions: JSON.stringify(mentionedUserIds), editedAt: now, updatedAt: now })
      .where("id", "=", comment.id)
      .execute();
    await recordChange(trx, {
      project,
      actor,
      action: "comment.updated",
      summary: `${actor.user.name} edited a comment`,
      data: { commentId: comment.id, parentId: comment.parentId, mentionedUserIds },
    });
    return { comment: await presentOne(trx, project.id, comment.id), notNotified };
  });
}

/**
 * The author, an owner or an admin deletes a comment. One with replies is
 * blanked (`deleted: true`) so the thread stays; one without is removed, and
 * a blanked thread start goes with its last reply.
 */
export async function deleteComment(actor: Actor, projectId: string, commentId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await projectAccess(actor, projectId, trx);
    const comment = await findComment(trx, project.id, commentId);
    if (comment.userId !== actor.user.id && !isAdmin(actor)) {
      throw forbidden("Only its author, an owner or an admin may delete a comment");
    }
    const replies = await trx
      .selectFrom("comments")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("parentId", "=", comment.id)
      .executeTakeFirstOrThrow();
    const now = nowIso();
    if (Number(replies.n) > 0) {
      await trx
        .updateTable("comments")
        .set({ content: "", mentions: "[]", deletedAt: now, updatedAt: now })
        .where("id", "=", comment.id)
        .execute();
    } else {
      await trx.deleteFrom("comments").where("id", "=", comment.id).execute();
      if (comment.parentId) {
        // A blanked thread start with no replies left has nothing to keep.
        await trx
          .deleteFrom("comments")
          .where("id", "=", comment.parentId)
          .where("deletedAt", "is not", null)
          .where((eb) => eb.not(eb.exists(eb.selectFrom("comments as r").select("r.id").whereRef("r.parentId", "=", "comments.id"))))
          .execute();
      }
    }
    await recordChange(trx, {
      project,
      actor,
      action: "comment.deleted",
      summary: `${actor.user.name} deleted a comment`,
      data: { commentId: comment.id, parentId: comment.parentId, keptForReplies: Number(replies.n) > 0 },
    });
  });
}
