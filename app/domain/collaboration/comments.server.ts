import type { Selectable } from "kysely";
import type { CommentsTable } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { findMentions } from "~/utils/literal";
import { type Actor, isAdmin } from "../actor";
import { forbidden, notFound, validationError } from "../errors";
import { projectAccess, readableProjects, requireComment } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import type { CreateCommentInput, UpdateCommentInput } from "./collaboration.schema";
import { type AnchorContext, anchorView, loadAnchorContext } from "./comment-anchors.server";

/**
 * Comments on a project, threaded one level deep: a reply to a reply joins
 * the top-level thread. `@ana@example.com` mentions a member of the project's
 * organization; anything else after `@` stays plain text. A thread may be on
 * a passage of the PRD (its anchor, comment-anchors.server.ts) and may be
 * resolved; its replies share both.
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
    // The name is matched as text (utils/literal), never compiled into a pattern. A longer name
    // found first is blanked out, so `@Ada Lovelace` is not also `@Ada`.
    const hits = findMentions(rest, name);
    if (!hits.length) continue;
    found.add(id);
    let blanked = "";
    let last = 0;
    for (const hit of hits) {
      blanked += rest.slice(last, hit.start) + " ".repeat(hit.end - hit.start);
      last = hit.end;
    }
    rest = blanked + rest.slice(last);
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
  return (
    executor
      .selectFrom("comments as c")
      .leftJoin("users as u", "u.id", "c.userId")
      // A reply shows whether its thread is resolved, and by whom.
      .leftJoin("comments as t", "t.id", "c.parentId")
      .leftJoin("users as r", (join) => join.on((eb) => eb("r.id", "=", eb.fn.coalesce("t.resolvedBy", "c.resolvedBy"))))
      .selectAll("c")
      .select((eb) => [
        "u.name as userName",
        "u.email as userEmail",
        eb.fn.coalesce("t.resolvedAt", "c.resolvedAt").as("threadResolvedAt"),
        "r.id as resolvedById",
        "r.name as resolvedByName",
      ])
      .where("c.projectId", "=", projectId)
  );
}
type CommentRow = Selectable<CommentsTable>;
type Row = Awaited<ReturnType<ReturnType<typeof commentQuery>["executeTakeFirstOrThrow"]>>;

async function present(executor: Executor, rows: Row[], anchors: AnchorContext) {
  const ids = new Set<string>();
  for (const r of rows) if (!r.deletedAt) for (const id of JSON.parse(r.mentions) as string[]) ids.add(id);
  const names = new Map<string, string>();
  if (ids.size) {
    const users = await executor
      .selectFrom("users")
      .select(["id", "name"])
      .where("id", "in", [...ids])
      .execute();
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
      mentions: deleted ? [] : (JSON.parse(r.mentions) as string[]).filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
      user: !deleted && r.userId ? { id: r.userId, name: r.userName!, email: r.userEmail! } : null,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      editedAt: r.editedAt,
      deleted,
      anchor: anchorView(anchors, r),
      resolved: r.threadResolvedAt !== null,
      resolvedAt: r.threadResolvedAt,
      resolvedBy: r.resolvedById ? { id: r.resolvedById, name: r.resolvedByName! } : null,
    };
  });
}
export type CommentOut = Awaited<ReturnType<typeof present>>[number];

async function presentOne(executor: Executor, projectId: string, commentId: string, anchors?: AnchorContext) {
  const row = await commentQuery(executor, projectId).where("c.id", "=", commentId).executeTakeFirstOrThrow();
  return (await present(executor, [row], anchors ?? (await loadAnchorContext(executor, projectId))))[0]!;
}

/** Top-level comments oldest first, each with its replies (oldest first). */
export async function listComments(actor: Actor, projectId: string) {
  await projectAccess(actor, projectId);
  const rows = await commentQuery(db, projectId).orderBy("c.createdAt", "asc").orderBy("c.id", "asc").execute();
  const all = await present(db, rows, await loadAnchorContext(db, projectId));
  const replies = new Map<string, CommentOut[]>();
  for (const c of all) if (c.parentId) replies.set(c.parentId, [...(replies.get(c.parentId) ?? []), c]);
  return all.filter((c) => !c.parentId).map((c) => ({ ...c, replies: replies.get(c.id) ?? [] }));
}

/** A comment of the project; a deleted one is 404 unless `keptThread` (a blanked thread start kept for its replies may still be resolved). */
async function findComment(executor: Executor, projectId: string, commentId: string, keptThread = false): Promise<CommentRow> {
  const row = await executor.selectFrom("comments").selectAll().where("id", "=", commentId).where("projectId", "=", projectId).executeTakeFirst();
  if (!row || (row.deletedAt && !(keptThread && !row.parentId))) throw notFound("Comment");
  return row;
}

/**
 * A thread start may quote the passage it is on (`anchor`); without a
 * `section`, it goes in the section that passage is in. A reply is on its
 * thread's passage and may not bring its own.
 */
export async function createComment(actor: Actor, projectId: string, input: CreateCommentInput) {
  if (input.parentId && input.anchor) throw validationError("anchor", "A reply is on its thread's passage: send anchor with the thread's first comment only");
  return db.transaction().execute(async (trx) => {
    const { project } = await requireComment(actor, projectId, trx);
    let thread: CommentRow | undefined;
    if (input.parentId) {
      const parent = await trx.selectFrom("comments").selectAll().where("id", "=", input.parentId).where("projectId", "=", project.id).executeTakeFirst();
      if (!parent) throw validationError("parentId", "No comment with that id in this project");
      thread = parent.parentId ? await trx.selectFrom("comments").selectAll().where("id", "=", parent.parentId).executeTakeFirstOrThrow() : parent;
    }
    const { userIds: mentionedUserIds, notNotified } = await resolveMentions(trx, project, input.content);
    const anchors = await loadAnchorContext(trx, project.id);
    const anchor = thread
      ? { quote: thread.quote, prefix: thread.quotePrefix, suffix: thread.quoteSuffix }
      : { quote: input.anchor?.quote ?? null, prefix: input.anchor?.prefix ?? null, suffix: input.anchor?.suffix ?? null };
    const now = nowIso();
    const comment = {
      id: newId(),
      projectId: project.id,
      userId: actor.user.id,
      parentId: thread?.id ?? null,
      content: input.content,
      // A reply without its own anchor belongs where its thread is anchored.
      section: input.section ?? thread?.section ?? (input.anchor ? anchors.sectionOf(input.anchor) : null),
      blockId: input.blockId ?? thread?.blockId ?? null,
      mentions: JSON.stringify(mentionedUserIds),
      createdAt: now,
      updatedAt: now,
      editedAt: null,
      deletedAt: null,
      quote: anchor.quote,
      quotePrefix: anchor.prefix,
      quoteSuffix: anchor.suffix,
      resolvedAt: null,
      resolvedBy: null,
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
    return { comment: await presentOne(trx, project.id, comment.id, anchors), notNotified };
  });
}

/**
 * `content`: only the author edits a comment; mentions are resolved again
 * from the new text. `resolved`: anyone who may comment on the project
 * resolves or reopens a thread (its top-level comment; a reply is 400).
 * Both in one transaction, each recorded in the activity feed when it changes
 * something.
 */
export async function updateComment(actor: Actor, projectId: string, commentId: string, input: UpdateCommentInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireComment(actor, projectId, trx);
    const comment = await findComment(trx, project.id, commentId, input.content === undefined);
    if (input.content !== undefined && comment.userId !== actor.user.id) throw forbidden("Only its author may edit a comment");
    if (input.resolved !== undefined && comment.parentId) {
      throw validationError("resolved", "A reply cannot be resolved on its own: resolve or reopen its thread");
    }
    let notNotified: { id: string; name: string }[] = [];
    const now = nowIso();
    if (input.content !== undefined && comment.content !== input.content) {
      const mentions = await resolveMentions(trx, project, input.content);
      notNotified = mentions.notNotified;
      await trx
        .updateTable("comments")
        .set({ content: input.content, mentions: JSON.stringify(mentions.userIds), editedAt: now, updatedAt: now })
        .where("id", "=", comment.id)
        .execute();
      await recordChange(trx, {
        project,
        actor,
        action: "comment.updated",
        summary: `${actor.user.name} edited a comment`,
        data: { commentId: comment.id, parentId: comment.parentId, mentionedUserIds: mentions.userIds },
      });
    }
    if (input.resolved !== undefined && input.resolved !== (comment.resolvedAt !== null)) {
      await trx
        .updateTable("comments")
        .set(input.resolved ? { resolvedAt: now, resolvedBy: actor.user.id, updatedAt: now } : { resolvedAt: null, resolvedBy: null, updatedAt: now })
        .where("id", "=", comment.id)
        .execute();
      // Activity only: the event catalogue has no event for it (docs/collaboration.md).
      await recordChange(trx, {
        project,
        actor,
        action: input.resolved ? "comment.resolved" : "comment.reopened",
        summary: `${actor.user.name} ${input.resolved ? "resolved" : "reopened"} a comment thread`,
        data: { commentId: comment.id },
      });
    }
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
      await trx.updateTable("comments").set({ content: "", mentions: "[]", deletedAt: now, updatedAt: now }).where("id", "=", comment.id).execute();
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
