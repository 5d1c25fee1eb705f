import type { TrackerIssuesTable } from "#db/schema";
import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { logger } from "~/utils/log.server";
import { type Actor, requireWriter } from "../actor";
import { AppError } from "../errors";
import { requireEdit } from "../projects/access.server";
import { TRACKER_INFO, TrackerError, type TrackerIssueState, type TrackerService } from "./adapter";
import { loadConnection, noteResult, rateLimitMessage } from "./connections.server";
import { deliveryProgress, withRetry } from "./sync.server";

/**
 * Issue states pulled from the trackers, for servers their webhooks cannot
 * reach (docs/trackers.md, "Without webhooks: refresh"): each linked issue of
 * a project is read from its service, a few at a time, and its state and
 * title written as soon as it is read. A rate limit or a refused token stops
 * that connection (the rest of its issues are reported, not refreshed); an
 * issue the service no longer has is reported and left as it is.
 */

export const refreshLimits = {
  /** At most this many issues per refresh, the longest unchecked first (tests lower it). */
  issues: 200,
  /** Calls to the services at a time. */
  concurrency: 4,
};

export type RefreshResult = {
  id: string;
  externalKey: string;
  service: TrackerService;
  state: TrackerIssueState;
  previousState: TrackerIssueState;
  changed: boolean;
  error: string | null;
};

/** Failures after which the connection's next issues would fail the same way. */
const STOPS = new Set(["rate_limited", "auth"]);

type Row = TrackerIssuesTable & { connectionId: string };
type Loaded = Awaited<ReturnType<typeof loadConnection>> | { error: string };

/** Runs `work` on every item, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function failureMessage(error: unknown, service: TrackerService, key: string) {
  const name = TRACKER_INFO[service].name;
  if (error instanceof TrackerError) {
    if (error.kind === "rate_limited") return rateLimitMessage(service, error.retryAfterSeconds ?? 60);
    if (error.kind === "not_found") return `${key} was deleted in ${name}, or the connection can no longer see it; its state is kept`;
    return error.message;
  }
  logger.warn("[trackers] refresh failed", { error: String(error) });
  return `${name} could not be reached; try again in a moment`;
}

/** The project's connections, each loaded once (an OAuth token renewed); a connection that cannot be used is its issues' failure. */
async function connectionsOf(actor: Actor, rows: Row[]) {
  const loaded = new Map<string, Loaded | null>();
  for (const id of new Set(rows.map((r) => r.connectionId))) {
    try {
      loaded.set(id, await loadConnection(actor, id));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Disconnected since the rows were read: skipped like the others.
      loaded.set(id, error.status === 404 ? null : { error: error.message });
    }
  }
  return loaded;
}

/** POST /api/projects/{projectId}/tracker/refresh: writers with edit rights on the project, like sending. */
export async function refreshIssueStates(actor: Actor, projectId: string) {
  requireWriter(actor, "Viewers cannot refresh issue states");
  const { project } = await requireEdit(actor, projectId);
  const all = await db.selectFrom("trackerIssues").selectAll().where("projectId", "=", project.id).orderBy("lastSyncedAt").orderBy("id").execute();
  const connected = all.filter((r): r is Row => r.connectionId !== null);
  const rows = connected.slice(0, refreshLimits.issues);
  const connections = await connectionsOf(actor, rows);
  const stopped = new Map<string, string>();
  let skipped = all.length - connected.length;
  const results: (RefreshResult | null)[] = new Array(rows.length).fill(null);

  await eachLimited(rows, refreshLimits.concurrency, async (row, index) => {
    const base = { id: row.id, externalKey: row.externalKey, service: row.service, state: row.state, previousState: row.state, changed: false };
    const loaded = connections.get(row.connectionId);
    if (!loaded) {
      skipped++;
      return;
    }
    if ("error" in loaded) {
      results[index] = { ...base, error: loaded.error };
      return;
    }
    const stop = stopped.get(row.connectionId);
    if (stop) {
      results[index] = { ...base, error: `Not refreshed: ${stop}` };
      return;
    }
    try {
      const issue = await withRetry(() => loaded.adapter.getIssue(loaded.credentials, row.target, row));
      const title = issue.title.slice(0, 250) || row.title;
      const changed = issue.state !== row.state || title !== row.title;
      await db
        .updateTable("trackerIssues")
        .set({ lastSyncedAt: nowIso(), ...(changed ? { state: issue.state, title } : {}) })
        .where("id", "=", row.id)
        .where("externalId", "=", row.externalId)
        .execute();
      results[index] = { ...base, state: issue.state, changed: issue.state !== row.state, error: null };
    } catch (error) {
      const message = failureMessage(error, row.service, row.externalKey);
      if (error instanceof TrackerError && STOPS.has(error.kind) && !stopped.has(row.connectionId)) stopped.set(row.connectionId, message);
      results[index] = { ...base, error: message };
    }
  });

  for (const [id, loaded] of connections) if (loaded && !("error" in loaded)) await noteResult(id, stopped.get(id) ?? null);
  const done = results.filter((r): r is RefreshResult => r !== null);
  return {
    refreshed: done.filter((r) => !r.error).length,
    changed: done.filter((r) => r.changed).length,
    failed: done.filter((r) => r.error).length,
    skipped,
    /** Linked issues left for another refresh (beyond refreshLimits.issues). */
    remaining: connected.length - rows.length,
    results: done,
    progress: await deliveryProgress(actor, project.id),
  };
}

export type RefreshSummary = Awaited<ReturnType<typeof refreshIssueStates>>;
