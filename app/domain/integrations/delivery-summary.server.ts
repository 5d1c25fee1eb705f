import { db } from "~/db.server";
import { type Actor, isAdmin } from "../actor";
import { connectionRow } from "../slack/connection.server";
import { slackSettings } from "../slack/client.server";
import { TRACKER_INFO } from "../trackers/adapter";
import { trackersShown } from "../trackers/connections.server";

/**
 * Settings → Integrations: where the PRD goes next, beside publishing —
 * issue trackers, Slack and AI agents over MCP — each with what is connected,
 * shown by the same rules as their own pages (a member never meets an
 * integration nobody set up).
 */
export async function deliverySummary(actor: Actor) {
  const [showTrackers, trackers, slack] = await Promise.all([
    trackersShown(actor),
    db.selectFrom("trackerConnections").select(["service", "accountLabel"]).where("orgId", "=", actor.org.id).orderBy("createdAt").execute(),
    connectionRow(actor.org.id),
  ]);
  const showSlack = isAdmin(actor) || slackSettings() !== null;
  return {
    trackers: showTrackers ? { connected: trackers.map((t) => `${TRACKER_INFO[t.service].name} (${t.accountLabel})`) } : null,
    slack: showSlack
      ? { connected: slack ? slack.teamName : null, needsReconnect: slack?.status === "needs_reconnect", configured: slackSettings() !== null }
      : null,
  };
}
export type DeliverySummary = Awaited<ReturnType<typeof deliverySummary>>;
