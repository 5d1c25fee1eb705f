import { appUrl } from "~/config.server";
import { db, type Executor } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Listener } from "../events/events.server";
import type { SlackEventKind } from "./slack.schema";

/**
 * Slack messages for what happens in a project. `announceInSlack` runs in the
 * transaction of the change (or of the outbox event's dispatch): it picks the
 * channel (the project's override, else the kind's channel, else the default)
 * and records one delivery per (event, channel) — a second call for the same
 * event does nothing — with a job that posts it (./deliver.server.ts). So a
 * rolled-back change posts nothing, and Slack never holds a request up.
 */

export const SLACK_POST_JOB = "slack.post";

export interface Announcement {
  orgId: string;
  kind: SlackEventKind;
  /** Unique per thing that happened (the outbox event id, or the approval request and its step). */
  eventKey: string;
  projectId: string | null;
  /** What happened, after the project name: "moved to In review". */
  what: string;
  who: string | null;
  /** App path to open; default the project's page. */
  path?: string;
}

export interface SlackMessage {
  text: string;
  blocks: unknown[];
}

/**
 * Slack's escaping of text (its "Formatting text for app surfaces"): `&`, `<`
 * and `>` become entities, so a name such as `<!channel>` or `<@U123>` is shown
 * as typed instead of notifying a channel or a person. Applied to every piece of
 * user text, in the `text` fallback as in the mrkdwn blocks; the links built
 * here (`<url|label>`) keep their brackets, with a label of ours.
 */
export const escapeSlackText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const esc = escapeSlackText;

export function buildMessage(a: { projectName: string | null; what: string; who: string | null; url: string }): SlackMessage {
  const subject = a.projectName ? `${esc(a.projectName)}: ${esc(a.what)}` : esc(a.what);
  const by = a.who ? ` (by ${esc(a.who)})` : "";
  return {
    text: `${subject}${by} ${a.url}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `${a.projectName ? `*${esc(a.projectName)}*: ` : ""}${esc(a.what)}` } },
      ...(a.who ? [{ type: "context", elements: [{ type: "mrkdwn", text: `By ${esc(a.who)}` }] }] : []),
      { type: "section", text: { type: "mrkdwn", text: `<${a.url}|${a.projectName ? "Open the project" : "Open PRD Studio"}>` } },
    ],
  };
}

async function channelFor(trx: Executor, orgId: string, kind: SlackEventKind, projectId: string | null, defaultChannelId: string | null) {
  if (projectId) {
    const p = await trx.selectFrom("slackProjectChannels").select("channelId").where("projectId", "=", projectId).where("orgId", "=", orgId).executeTakeFirst();
    if (p) return p.channelId;
  }
  const k = await trx.selectFrom("slackEventChannels").select("channelId").where("orgId", "=", orgId).where("kind", "=", kind).executeTakeFirst();
  return k?.channelId ?? defaultChannelId;
}

/** Records the message and its job, in the caller's transaction. No connection or no channel: nothing to do. */
export async function announceInSlack(trx: Executor, a: Announcement) {
  const conn = await trx.selectFrom("slackConnections").select(["status", "defaultChannelId"]).where("orgId", "=", a.orgId).executeTakeFirst();
  if (!conn || conn.status !== "active") return;
  const project = a.projectId
    ? await trx.selectFrom("projects").select(["id", "name"]).where("id", "=", a.projectId).where("orgId", "=", a.orgId).executeTakeFirst()
    : undefined;
  const channelId = await channelFor(trx, a.orgId, a.kind, project?.id ?? null, conn.defaultChannelId);
  if (!channelId) return;
  const url = `${appUrl()}${a.path ?? (project ? `/projects/${project.id}` : "/home")}`;
  const message = buildMessage({ projectName: project?.name ?? null, what: a.what, who: a.who, url });
  const now = nowIso();
  const id = newId();
  const inserted = await trx
    .insertInto("slackDeliveries")
    .values({
      id,
      orgId: a.orgId,
      eventKey: a.eventKey,
      kind: a.kind,
      channelId,
      message: JSON.stringify(message),
      status: "pending",
      attempts: 0,
      messageTs: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict((oc) => oc.columns(["orgId", "eventKey", "channelId"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
  await enqueue(trx, SLACK_POST_JOB, { deliveryId: id });
}

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

async function userName(trx: Executor, id: string | null) {
  if (!id) return null;
  return (await trx.selectFrom("users").select("name").where("id", "=", id).executeTakeFirst())?.name ?? null;
}

/** The outbox events Slack announces: mentions in comments, status changes, review decisions. Idempotent (one delivery per event and channel). */
export const slackListener: Listener = async (event, trx) => {
  if (!event.orgId) return;
  const d = event.data;
  const base = { orgId: event.orgId, eventKey: `event:${event.id}`, projectId: str(d.projectId) };
  if (event.name === "comment.created") {
    const ids = (Array.isArray(d.mentionedUserIds) ? (d.mentionedUserIds as unknown[]) : []).filter(
      (id): id is string => typeof id === "string" && id !== event.actorId,
    );
    if (!ids.length) return;
    const names = (await trx.selectFrom("users").select("name").where("id", "in", ids).orderBy("name").execute()).map((u) => u.name);
    if (!names.length) return;
    const who = await userName(trx, event.actorId);
    const path = base.projectId ? `/projects/${base.projectId}${str(d.commentId) ? `#comment-${d.commentId}` : ""}` : undefined;
    await announceInSlack(trx, { ...base, kind: "mention", what: `${who ?? "Someone"} mentioned ${names.join(", ")} in a comment`, who, path });
  } else if (event.name === "project.status_changed") {
    await announceInSlack(trx, { ...base, kind: "status_changed", what: `moved to ${statusLabel(str(d.to))}`, who: await userName(trx, event.actorId) });
  } else if (event.name === "review.resolved") {
    const view = str(d.reviewId)
      ? await trx.selectFrom("stakeholderViews").select(["name", "resolvedByName"]).where("id", "=", str(d.reviewId)!).executeTakeFirst()
      : undefined;
    const status = str(d.status) ?? "resolved";
    await announceInSlack(trx, {
      ...base,
      kind: "review_decided",
      what: `review “${view?.name ?? "review"}” was ${status}`,
      who: view?.resolvedByName ?? null,
    });
  }
};

const statusLabel = (s: string | null) =>
  s
    ? s
        .toLowerCase()
        .replace(/_/g, " ")
        .replace(/^./, (c) => c.toUpperCase())
    : "a new status";

/** A review request was created (collaboration/stakeholders.server.ts), in its transaction. */
export const announceReviewRequest = (
  trx: Executor,
  r: { orgId: string; projectId: string; viewId: string; name: string; reviewer: string | null; who: string },
) =>
  announceInSlack(trx, {
    orgId: r.orgId,
    kind: "review_requested",
    eventKey: `review:${r.viewId}:requested`,
    projectId: r.projectId,
    what: `${r.who} asked ${r.reviewer ?? "a stakeholder"} to review “${r.name}”`,
    who: r.who,
    path: `/projects/${r.projectId}/sharing`,
  });

/** An approval was requested or decided (approvals/*.server.ts), in its transaction. */
export const announceApproval = (
  trx: Executor,
  r: { orgId: string; requestId: string; targetType: string; targetId: string; label: string; step: "requested" | "approved" | "rejected"; who: string },
) =>
  announceInSlack(trx, {
    orgId: r.orgId,
    kind: r.step === "requested" ? "approval_requested" : "approval_decided",
    eventKey: `approval:${r.requestId}:${r.step}`,
    projectId: r.targetType === "project" ? r.targetId : null,
    what: r.step === "requested" ? `approval requested for “${r.label}”` : `approval ${r.step} for “${r.label}”`,
    who: r.who,
    path: "/approvals",
  });

export const deliveryRow = (id: string) => db.selectFrom("slackDeliveries").selectAll().where("id", "=", id).executeTakeFirst();
