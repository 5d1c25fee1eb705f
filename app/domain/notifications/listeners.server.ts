import { db, type Executor } from "~/db.server";
import type { DomainEvent, Listener } from "../events/events.server";
import { notifyUsers } from "./notify.server";

/**
 * Turns outbox events into notifications (run by the job worker). The actor
 * is never notified of their own action (exports excepted: they are the
 * actor's own result). Idempotent: each notification carries the event id and
 * notifyUsers skips (event, user) pairs that already exist.
 */

type Project = { id: string; name: string; orgId: string; createdById: string | null; assignedToId: string | null };

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

async function loadProject(trx: Executor, projectId: unknown): Promise<Project | undefined> {
  const id = str(projectId);
  if (!id) return undefined;
  return trx.selectFrom("projects").select(["id", "name", "orgId", "createdById", "assignedToId"]).where("id", "=", id).executeTakeFirst();
}

async function actorName(trx: Executor, actorId: string | null) {
  if (!actorId) return "Someone";
  const u = await trx.selectFrom("users").select("name").where("id", "=", actorId).executeTakeFirst();
  return u?.name ?? "Someone";
}

const others = (ids: (string | null | undefined)[], actorId: string | null) => [...new Set(ids.filter((id): id is string => Boolean(id) && id !== actorId))];

async function handle(trx: Executor, event: DomainEvent) {
  const d = event.data;
  const base = { orgId: event.orgId, data: { eventId: event.id, ...pickIds(d) } };
  switch (event.name as string) {
    case "comment.created": {
      const project = await loadProject(trx, d.projectId);
      if (!project) return;
      const who = await actorName(trx, event.actorId);
      const link = `/projects/${project.id}#comment-${str(d.commentId) ?? ""}`;
      const mentioned = others(Array.isArray(d.mentionedUserIds) ? (d.mentionedUserIds as string[]) : [], event.actorId);
      const comment = str(d.commentId) ? await trx.selectFrom("comments").select("content").where("id", "=", str(d.commentId)!).executeTakeFirst() : undefined;
      const excerpt = comment ? (comment.content.length > 280 ? `${comment.content.slice(0, 279)}…` : comment.content) : null;
      await notifyUsers(trx, mentioned, { ...base, type: "mention", title: `${who} mentioned you on ${project.name}`, body: excerpt, link });
      let parentAuthor: string | null = null;
      if (str(d.parentId)) {
        const parent = await trx.selectFrom("comments").select("userId").where("id", "=", str(d.parentId)!).executeTakeFirst();
        parentAuthor = parent?.userId ?? null;
      }
      const watchers = others([project.createdById, project.assignedToId, parentAuthor], event.actorId).filter((id) => !mentioned.includes(id));
      await notifyUsers(trx, watchers, { ...base, type: "comment", title: `${who} commented on ${project.name}`, body: excerpt, link });
      return;
    }
    case "share.enabled": {
      const project = await loadProject(trx, d.projectId);
      if (!project) return;
      const who = await actorName(trx, event.actorId);
      await notifyUsers(trx, others([project.createdById, project.assignedToId], event.actorId), {
        ...base,
        type: "share",
        title: `${who} turned on the share link of ${project.name}`,
        link: `/projects/${project.id}/sharing`,
      });
      return;
    }
    case "project.created":
    case "project.updated": {
      const changes = (d.changes ?? {}) as Record<string, { to?: unknown } | undefined>;
      const project = await loadProject(trx, d.projectId);
      const assignee =
        event.name === "project.created" ? (project?.assignedToId ?? null) : "assignedToId" in changes ? str(changes.assignedToId?.to) : str(d.assignedToId);
      if (!project || !assignee) return;
      const who = await actorName(trx, event.actorId);
      await notifyUsers(trx, others([assignee], event.actorId), {
        ...base,
        type: "assignment",
        title: `${who} assigned ${project.name} to you`,
        link: `/projects/${project.id}`,
      });
      return;
    }
    case "project.status_changed": {
      const project = await loadProject(trx, d.projectId);
      if (!project) return;
      const who = await actorName(trx, event.actorId);
      await notifyUsers(trx, others([project.createdById, project.assignedToId], event.actorId), {
        ...base,
        type: "status_change",
        title: `${who} moved ${project.name} to ${String(d.to ?? "a new status")}`,
        link: `/projects/${project.id}`,
      });
      return;
    }
    case "export.completed":
    case "export.failed": {
      // A download the person is watching needs no notification; deliveries (schedules, workspaces) do.
      if (d.delivery === "download") return;
      const userId = str(d.userId) ?? event.actorId;
      if (!userId) return;
      const project = await loadProject(trx, d.projectId);
      const ok = event.name === "export.completed";
      await notifyUsers(trx, [userId], {
        ...base,
        type: "export",
        title: `${ok ? "Your export is ready" : "Your export failed"}${project ? `: ${project.name}` : ""}`,
        body: str(d.error) ?? null,
        link: project ? `/projects/${project.id}` : null,
      });
      return;
    }
    case "invitation.created": {
      const email = str(d.email);
      if (!email) return;
      const user = await trx.selectFrom("users").select("id").where("email", "=", email.toLowerCase()).executeTakeFirst();
      const org = event.orgId ? await trx.selectFrom("organizations").select("name").where("id", "=", event.orgId).executeTakeFirst() : undefined;
      if (!user) return;
      const who = await actorName(trx, event.actorId);
      await notifyUsers(trx, others([user.id], event.actorId), {
        ...base,
        type: "invitation",
        title: `${who} invited you to join ${org?.name ?? "an organization"}`,
        body: "Open the invitation e-mail to accept it.",
        link: null,
      });
      return;
    }
    case "review.resolved": {
      const view = str(d.reviewId)
        ? await trx.selectFrom("stakeholderViews").select(["createdById", "name", "reviewStatus"]).where("id", "=", str(d.reviewId)!).executeTakeFirst()
        : undefined;
      const project = await loadProject(trx, d.projectId);
      if (!view || !project) return;
      await notifyUsers(trx, others([view.createdById], event.actorId), {
        ...base,
        type: "approval",
        title: `“${view.name}” was ${String(d.status ?? view.reviewStatus ?? "resolved")} on ${project.name}`,
        link: `/projects/${project.id}/sharing`,
      });
      return;
    }
    default:
      if ((event.name as string).startsWith("approval.")) await approvalEvent(trx, event, base);
  }
}

/** Approval requests decided (from the approvals area): the requester hears the outcome. */
async function approvalEvent(trx: Executor, event: DomainEvent, base: { orgId: string | null; data: Record<string, unknown> }) {
  const requester = str(event.data.requestedById) ?? str(event.data.requesterId);
  const status = str(event.data.status);
  if (!requester || !status || status === "pending") return;
  await notifyUsers(trx, others([requester], event.actorId), {
    ...base,
    type: "approval",
    title: `Your approval request was ${status}`,
    link: str(event.data.projectId) ? `/projects/${event.data.projectId}` : null,
  });
}

const ID_KEYS = ["projectId", "commentId", "reviewId", "invitationId", "exportId", "approvalRequestId"];
const pickIds = (d: Record<string, unknown>) => Object.fromEntries(ID_KEYS.filter((k) => typeof d[k] === "string").map((k) => [k, d[k]]));

/** The notifications of one event, in a transaction of its own (the dispatcher passes its batch's instead). */
export async function notifyFromEvent(event: DomainEvent) {
  await db.transaction().execute((trx) => handle(trx, event));
}

/** The dispatcher's listener (listed in app/jobs/handlers.server.ts): the batch's transaction. */
export const notificationsListener: Listener = (event, trx) => handle(trx, event);
