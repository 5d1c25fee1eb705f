import { appUrl } from "~/config.server";
import { db } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import type { JobHandler } from "~/jobs/types";
import { nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError } from "../errors";
import { AUTH_ERRORS, PERMANENT_ERRORS, type SlackFailure, slackClient, slackErrorMessage, slackFailure } from "./client.server";
import { activeToken, clearSlackError, recordSlackError, requireSlackAdmin } from "./connection.server";
import { buildMessage, deliveryRow, SLACK_POST_JOB, type SlackMessage } from "./messages.server";
import { slackChannels } from "./routing.server";

/**
 * Posting: the `slack.post` job sends one recorded delivery with
 * chat.postMessage, once (a sent delivery is never sent again). Slack's
 * rate limit puts the job back for exactly its Retry-After; an answer that
 * retrying cannot fix (unknown channel, app not in it, token revoked) is
 * recorded on the connection in plain words and not retried; an
 * unreachable Slack is retried with the queue's backoff.
 */

/** Rate-limited attempts of one message before it is given up. */
const MAX_RATE_LIMITED = 8;

async function post(token: string, channel: string, m: SlackMessage) {
  const res = await slackClient(token).chat.postMessage({ channel, text: m.text, blocks: m.blocks as never, unfurl_links: false, unfurl_media: false });
  return res.ts ?? null;
}

const channelName = async (orgId: string, channelId: string) => {
  const c = await db.selectFrom("slackConnections").select(["defaultChannelId", "defaultChannelName"]).where("orgId", "=", orgId).executeTakeFirst();
  if (c?.defaultChannelId === channelId) return c.defaultChannelName;
  const e = await db.selectFrom("slackEventChannels").select("channelName").where("orgId", "=", orgId).where("channelId", "=", channelId).executeTakeFirst();
  if (e) return e.channelName;
  return (
    (await db.selectFrom("slackProjectChannels").select("channelName").where("orgId", "=", orgId).where("channelId", "=", channelId).executeTakeFirst())
      ?.channelName ?? null
  );
};

async function finish(id: string, status: "sent" | "failed", extra: { messageTs?: string | null; lastError?: string | null }) {
  await db
    .updateTable("slackDeliveries")
    .set({ status, ...extra, updatedAt: nowIso() })
    .where("id", "=", id)
    .execute();
}

export const slackPostJob: JobHandler = {
  async run(payload: { deliveryId: string }) {
    const d = await deliveryRow(payload.deliveryId);
    if (!d || d.status !== "pending") return;
    const active = await activeToken(d.orgId);
    if (!active) return finish(d.id, "failed", { lastError: "Slack is not connected" });
    const attempts = d.attempts + 1;
    await db.updateTable("slackDeliveries").set({ attempts, updatedAt: nowIso() }).where("id", "=", d.id).execute();
    let f: SlackFailure;
    try {
      const ts = await post(active.token, d.channelId, JSON.parse(d.message) as SlackMessage);
      await finish(d.id, "sent", { messageTs: ts, lastError: null });
      await clearSlackError(d.orgId);
      return;
    } catch (error) {
      f = slackFailure(error);
    }
    const message = slackErrorMessage(f, await channelName(d.orgId, d.channelId));
    if (f.error === "ratelimited" && attempts < MAX_RATE_LIMITED) {
      await db.updateTable("slackDeliveries").set({ lastError: message }).where("id", "=", d.id).execute();
      await recordSlackError(d.orgId, message);
      await enqueue(db, SLACK_POST_JOB, { deliveryId: d.id }, { runAt: new Date(Date.now() + (f.retryAfterSeconds ?? 30) * 1000) });
      return;
    }
    if (PERMANENT_ERRORS.has(f.error) || f.error === "ratelimited") {
      await recordSlackError(d.orgId, message, AUTH_ERRORS.has(f.error) && f.error !== "missing_scope");
      return finish(d.id, "failed", { lastError: message });
    }
    // Slack unreachable or answering 5xx: the queue tries again with backoff.
    await db.updateTable("slackDeliveries").set({ lastError: message }).where("id", "=", d.id).execute();
    throw new Error(message);
  },
  async onGiveUp(payload: { deliveryId: string }, _job, error) {
    const d = await deliveryRow(payload.deliveryId);
    if (!d || d.status !== "pending") return;
    const message = error instanceof Error ? error.message : String(error);
    await finish(d.id, "failed", { lastError: message });
    await recordSlackError(d.orgId, `A message could not be delivered: ${message}`);
  },
};

/** POST /api/integrations/slack/test and the page's "Send a test message": posted now, to the chosen or the default channel. */
export async function sendSlackTest(actor: Actor, input: { channelId?: string | null }) {
  requireSlackAdmin(actor);
  const active = await activeToken(actor.org.id);
  if (!active) throw new AppError("CONFLICT", 409, "Slack is not connected (or needs to be reconnected): connect it in Settings → Slack first");
  const channelId = input.channelId ?? active.row.defaultChannelId;
  if (!channelId) throw new AppError("CONFLICT", 409, "Choose a default channel first, then send a test message to it");
  const known = (await slackChannels(actor)).channels.find((c) => c.id === channelId);
  const name = known?.name ?? (channelId === active.row.defaultChannelId ? active.row.defaultChannelName : null);
  const m = buildMessage({
    projectName: null,
    what: `Test message from PRD Studio: Slack is connected to ${actor.org.name}.`,
    who: actor.user.name,
    url: `${appUrl()}/settings/slack`,
  });
  try {
    const ts = await post(active.token, channelId, m);
    await clearSlackError(actor.org.id);
    return { success: true as const, channelId, channelName: name ?? channelId, ts };
  } catch (error) {
    const f = slackFailure(error);
    const message = slackErrorMessage(f, name);
    await recordSlackError(actor.org.id, message, AUTH_ERRORS.has(f.error) && f.error !== "missing_scope");
    const wait = f.retryAfterSeconds;
    throw new AppError("PROVIDER_ERROR", 502, message, wait ? { headers: { "Retry-After": String(wait) }, extra: { retryAfter: wait } } : undefined);
  }
}
