import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { type Actor, isAdmin } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError, notFound, validationError } from "../errors";
import { getProject } from "../projects/projects.server";
import { listChannels, type SlackChannel } from "./channels.server";
import { SLACK_ENV, slackErrorMessage, slackFailure, slackSettings } from "./client.server";
import { activeToken, connectionRow, recordSlackError, requireSlackAdmin, requireSlackVisible } from "./connection.server";
import { SLACK_EVENT_KINDS, type SlackEventKind, type SlackRoutingInput } from "./slack.schema";

/** Where an organization's Slack messages go, and what the settings page shows. */

type Choice = { channelId: string; channelName: string } | null;

/** GET /api/integrations/slack and Settings → Slack. Members: read-only; 404 while the operator has not set Slack up. */
export async function slackStatus(actor: Actor) {
  requireSlackVisible(actor);
  const configured = slackSettings() !== null;
  const row = await connectionRow(actor.org.id);
  const [events, projects] = await Promise.all([
    db.selectFrom("slackEventChannels").select(["kind", "channelId", "channelName"]).where("orgId", "=", actor.org.id).execute(),
    db
      .selectFrom("slackProjectChannels as s")
      .innerJoin("projects as p", "p.id", "s.projectId")
      .select(["s.projectId", "p.name as projectName", "s.channelId", "s.channelName"])
      .where("s.orgId", "=", actor.org.id)
      .where("p.orgId", "=", actor.org.id)
      .orderBy("p.name")
      .execute(),
  ]);
  const byKind = new Map(events.map((e) => [e.kind, e]));
  return {
    configured,
    canManage: isAdmin(actor),
    /** For owners and admins while Slack is not set up: the variables the operator must set (never their values). */
    setup: configured || !isAdmin(actor) ? null : SLACK_ENV,
    connected: Boolean(row),
    needsReconnect: row?.status === "needs_reconnect",
    teamName: row?.teamName ?? null,
    connectedAt: row?.createdAt ?? null,
    lastError: row?.lastError ?? null,
    lastErrorAt: row?.lastErrorAt ?? null,
    routing: {
      defaultChannel: row?.defaultChannelId ? { channelId: row.defaultChannelId, channelName: row.defaultChannelName ?? row.defaultChannelId } : null,
      events: Object.fromEntries(
        SLACK_EVENT_KINDS.map((k) => {
          const e = byKind.get(k);
          return [k, e ? { channelId: e.channelId, channelName: e.channelName } : null];
        }),
      ) as Record<SlackEventKind, Choice>,
      projects,
    },
  };
}

/** The channels to choose from, for owners and admins of a working connection (empty otherwise); a Slack failure is recorded and reported. */
export async function slackChannels(actor: Actor): Promise<{ channels: SlackChannel[]; error: string | null }> {
  if (!isAdmin(actor)) return { channels: [], error: null };
  const active = await activeToken(actor.org.id);
  if (!active) return { channels: [], error: null };
  try {
    return { channels: await listChannels(actor.org.id, active.token), error: null };
  } catch (e) {
    const f = slackFailure(e);
    const message = slackErrorMessage(f);
    if (f.error !== "ratelimited") await recordSlackError(actor.org.id, message, ["invalid_auth", "token_revoked", "account_inactive"].includes(f.error));
    return { channels: [], error: message };
  }
}

async function requireChannels(actor: Actor) {
  requireSlackAdmin(actor);
  const active = await activeToken(actor.org.id);
  if (!active) throw new AppError("CONFLICT", 409, "Slack is not connected (or needs to be reconnected): connect it in Settings → Slack first");
  const { channels, error } = await slackChannels(actor);
  if (error) throw new AppError("PROVIDER_ERROR", 502, error);
  return new Map(channels.map((c) => [c.id, c]));
}

const pick = (channels: Map<string, SlackChannel>, id: string, path: string) => {
  const c = channels.get(id);
  if (!c) throw validationError(path, "This channel is not one the Slack app can see: choose one from the list");
  return c;
};

/** PUT /api/integrations/slack: the default channel, per-kind channels and per-project overrides (null clears; absent keeps). */
export async function saveSlackRouting(actor: Actor, input: SlackRoutingInput) {
  const channels = await requireChannels(actor);
  const projectIds = (input.projects ?? []).map((p) => p.projectId);
  const owned = projectIds.length
    ? new Set((await db.selectFrom("projects").select("id").where("orgId", "=", actor.org.id).where("id", "in", projectIds).execute()).map((p) => p.id))
    : new Set<string>();
  for (const [i, p] of (input.projects ?? []).entries()) if (!owned.has(p.projectId)) throw validationError(`projects.${i}.projectId`, "Project not found");
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (input.defaultChannelId !== undefined) {
      const c = input.defaultChannelId ? pick(channels, input.defaultChannelId, "defaultChannelId") : null;
      await trx
        .updateTable("slackConnections")
        .set({ defaultChannelId: c?.id ?? null, defaultChannelName: c?.name ?? null, updatedAt: now })
        .where("orgId", "=", actor.org.id)
        .execute();
    }
    for (const [kind, id] of Object.entries(input.events ?? {})) {
      if (id === undefined) continue;
      await trx.deleteFrom("slackEventChannels").where("orgId", "=", actor.org.id).where("kind", "=", kind).execute();
      if (id) {
        const c = pick(channels, id, `channel_${kind}`);
        await trx.insertInto("slackEventChannels").values({ orgId: actor.org.id, kind, channelId: c.id, channelName: c.name }).execute();
      }
    }
    for (const [i, p] of (input.projects ?? []).entries()) {
      if (p.channelId === undefined) continue;
      await trx.deleteFrom("slackProjectChannels").where("projectId", "=", p.projectId).where("orgId", "=", actor.org.id).execute();
      if (p.channelId) {
        const c = pick(channels, p.channelId, `projects.${i}.channelId`);
        await trx.insertInto("slackProjectChannels").values({ projectId: p.projectId, orgId: actor.org.id, channelId: c.id, channelName: c.name }).execute();
      }
    }
    await writeAudit(trx, { ...auditActor(actor), action: "slack.routing_updated", category: "settings", targetType: "integration", targetId: "slack" });
  });
  return slackStatus(actor);
}

/** The project settings page's Slack select: its override and, for owners and admins, the channels. Null when Slack is not connected. */
export async function projectSlackChannel(actor: Actor, projectId: string) {
  const project = await getProject(actor, projectId);
  if (!slackSettings()) return null;
  const row = await connectionRow(actor.org.id);
  if (!row) return null;
  const current = await db
    .selectFrom("slackProjectChannels")
    .select(["channelId", "channelName"])
    .where("projectId", "=", project.id)
    .where("orgId", "=", actor.org.id)
    .executeTakeFirst();
  const { channels, error } = await slackChannels(actor);
  return { teamName: row.teamName, canManage: isAdmin(actor), current: current ?? null, channels: channels.map((c) => ({ id: c.id, name: c.name })), error };
}

/** The per-project override from the project settings page (same rules as PUT /api/integrations/slack `projects`). */
export async function setProjectSlackChannel(actor: Actor, projectId: string, channelId: string | null) {
  const project = await getProject(actor, projectId).catch(() => {
    throw notFound("Project");
  });
  const status = await saveSlackRouting(actor, { projects: [{ projectId: project.id, channelId }] }).catch((e) => {
    // The form has one field: name it.
    if (e instanceof AppError && e.details?.length) throw validationError("channelId", e.details[0]!.message);
    throw e;
  });
  return status.routing.projects.find((p) => p.projectId === project.id) ?? null;
}
