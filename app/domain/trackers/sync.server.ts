import type { Project, TrackerIssuesTable } from "#db/schema";
import { appUrl } from "~/config.server";
import { db } from "~/db.server";
import { slugify } from "~/utils/markdown.server";
import { newId, nowIso } from "~/utils/ids.server";
import { logger } from "~/utils/log.server";
import { type Actor, requireWriter } from "../actor";
import { notFound } from "../errors";
import { recordChange } from "../projects/activity.server";
import { projectAccess, requireEdit, type Viewer } from "../projects/access.server";
import { type ExternalIssue, type IssueDraft, TRACKER_INFO, TrackerError, type TrackerService } from "./adapter";
import { requireAllowedTarget } from "./allowed-targets";
import { loadConnection, noteResult, rateLimitMessage } from "./connections.server";
import { acquireSendLock, type SendLock } from "./send-lock.server";
import { issueBody, parseStories, type Story } from "./stories";
import type { SendStoriesInput } from "./trackers.schema";

/**
 * Stories of a project sent to a tracker: a preview first (what would be
 * created or updated, computed without calling the service or writing
 * anything), then the send, one story at a time, each linked as soon as the
 * service has it, so a failure midway leaves the earlier ones linked and a
 * second send continues without duplicating.
 */

export const trackerRetry = {
  /** A Retry-After up to this long is waited for once; longer ones are reported. */
  maxWaitMs: 10_000,
  /** Replaced by tests to record the waits instead of sleeping. */
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

export function presentIssue(r: TrackerIssuesTable) {
  return {
    id: r.id,
    storyKey: r.storyKey,
    service: r.service,
    target: r.target,
    section: r.section,
    externalId: r.externalId,
    externalNumber: r.externalNumber,
    externalKey: r.externalKey,
    url: r.url,
    title: r.title,
    state: r.state,
    lastSyncedAt: r.lastSyncedAt,
  };
}
export type LinkedIssue = ReturnType<typeof presentIssue>;

async function storiesOf(project: Project, input: SendStoriesInput): Promise<Story[]> {
  if (input.outputId) {
    const output = await db
      .selectFrom("aiOutputs")
      .select(["content"])
      .where("id", "=", input.outputId)
      .where("projectId", "=", project.id)
      .where("kind", "=", "user_stories")
      .executeTakeFirst();
    if (!output) throw notFound("Saved user stories");
    return parseStories(output.content);
  }
  return parseStories(input.markdown ?? "");
}

const prdLink = (project: Project, section: string | null) => `${appUrl()}/projects/${project.id}${section ? `#${slugify(section)}` : ""}`;

/**
 * Who may send what where: the caller's rights checked, the target one the
 * connection allows (403 otherwise; allowed-targets.ts), the stories read.
 * Every preview and send passes here: the pages, the API and MCP.
 */
async function authorize(actor: Actor, projectId: string, input: SendStoriesInput, purpose: "preview" | "send") {
  requireWriter(actor, "Viewers cannot send stories to a tracker");
  const { project } = await requireEdit(actor, projectId);
  const connection = await loadConnection(actor, input.connectionId, { renew: purpose === "send" });
  requireAllowedTarget(connection.row, input.target);
  let stories = await storiesOf(project, input);
  if (input.storyKeys) {
    const picked = new Set(input.storyKeys);
    stories = stories.filter((s) => picked.has(s.key));
  }
  return { project, connection, service: connection.row.service, stories };
}

/** Each story with its draft and the issue it is already linked to (read after the send lock is held). */
async function itemsOf({ project, service, stories }: Awaited<ReturnType<typeof authorize>>, target: string) {
  const linked = await db
    .selectFrom("trackerIssues")
    .selectAll()
    .where("projectId", "=", project.id)
    .where("service", "=", service)
    .where("target", "=", target)
    .execute();
  const byKey = new Map(linked.map((r) => [r.storyKey, r]));
  return stories.map((story) => {
    const draft: IssueDraft = {
      title: story.title,
      body: issueBody(story, { projectName: project.name, url: prdLink(project, story.section) }),
      labels: story.labels,
    };
    const existing = byKey.get(story.key) ?? null;
    return { story, draft, existing };
  });
}

const previewItem = (i: Awaited<ReturnType<typeof itemsOf>>[number]) => ({
  key: i.story.key,
  title: i.draft.title,
  body: i.draft.body,
  labels: i.draft.labels,
  section: i.story.section,
  action: i.existing ? ("update" as const) : ("create" as const),
  issue: i.existing ? presentIssue(i.existing) : null,
});

/** POST /api/projects/{projectId}/tracker/preview: no side effects. */
export async function previewStories(actor: Actor, projectId: string, input: SendStoriesInput) {
  const allowed = await authorize(actor, projectId, input, "preview");
  const { connection, service } = allowed;
  const items = await itemsOf(allowed, input.target);
  return {
    connectionId: connection.row.id,
    service,
    target: input.target,
    stories: items.map(previewItem),
    creates: items.filter((i) => !i.existing).length,
    updates: items.filter((i) => i.existing).length,
  };
}

/** One call, retried once after a short Retry-After. */
export async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const wait = error instanceof TrackerError && error.kind === "rate_limited" ? (error.retryAfterSeconds ?? 60) * 1000 : null;
    if (wait === null || wait > trackerRetry.maxWaitMs) throw error;
    await trackerRetry.sleep(wait);
    return await work();
  }
}

export type SendResult = {
  key: string;
  title: string;
  action: "created" | "updated" | "failed" | "not_sent";
  issue: LinkedIssue | null;
  error: string | null;
};

/** Failures after which the next stories would fail the same way: the send stops there. */
const STOPS = new Set(["rate_limited", "auth", "not_found"]);

/** POST /api/projects/{projectId}/tracker/send: 409 CONFLICT while another send to the same target runs. */
export async function sendStories(actor: Actor, projectId: string, input: SendStoriesInput) {
  const allowed = await authorize(actor, projectId, input, "send");
  const lock = await acquireSendLock(allowed.project.id, allowed.service, input.target);
  try {
    return await sendLocked(actor, allowed, await itemsOf(allowed, input.target), input, lock);
  } finally {
    await lock.release();
  }
}

async function sendLocked(
  actor: Actor,
  { project, connection, service }: Awaited<ReturnType<typeof authorize>>,
  items: Awaited<ReturnType<typeof itemsOf>>,
  input: SendStoriesInput,
  lock: SendLock,
) {
  const { adapter, credentials, row: conn } = connection;
  const results: SendResult[] = [];
  let stopped: string | null = null;
  for (const item of items) {
    const base = { key: item.story.key, title: item.draft.title };
    if (stopped) {
      results.push({ ...base, action: "not_sent", issue: item.existing ? presentIssue(item.existing) : null, error: `Not sent: ${stopped}` });
      continue;
    }
    try {
      const existing = item.existing;
      const issue: ExternalIssue = existing
        ? await withRetry(() => adapter.updateIssue(credentials, input.target, existing, item.draft))
        : await withRetry(() => adapter.createIssue(credentials, input.target, item.draft));
      const saved = await link(project, conn.id, service, input.target, item.story, issue);
      results.push({ ...base, action: existing ? "updated" : "created", issue: presentIssue(saved), error: null });
    } catch (error) {
      const message = failureMessage(error, service);
      if (error instanceof TrackerError && STOPS.has(error.kind)) stopped = message;
      results.push({ ...base, action: "failed", issue: item.existing ? presentIssue(item.existing) : null, error: message });
    }
    await lock.renew();
  }
  const count = (a: SendResult["action"]) => results.filter((r) => r.action === a).length;
  const summary = { created: count("created"), updated: count("updated"), failed: count("failed") + count("not_sent") };
  await noteResult(conn.id, stopped);
  if (summary.created || summary.updated) {
    await recordChange(db, {
      project,
      actor,
      action: "tracker.sent",
      summary: `${actor.user.name} sent ${summary.created + summary.updated} ${summary.created + summary.updated === 1 ? "story" : "stories"} to ${TRACKER_INFO[service].name} (${input.target})`,
      data: { service, target: input.target, ...summary },
    });
  }
  return { service, target: input.target, results, ...summary };
}

function failureMessage(error: unknown, service: TrackerService) {
  if (error instanceof TrackerError) return error.kind === "rate_limited" ? rateLimitMessage(service, error.retryAfterSeconds ?? 60) : error.message;
  logger.warn("[trackers] send failed", { error: String(error) });
  return `${TRACKER_INFO[service].name} could not be reached; try again in a moment`;
}

/** The story's link to its issue, committed on its own as soon as the service has the issue. */
async function link(project: Project, connectionId: string, service: TrackerService, target: string, story: Story, issue: ExternalIssue) {
  const now = nowIso();
  const values = {
    connectionId,
    section: story.section,
    externalId: issue.externalId,
    externalNumber: issue.externalNumber,
    externalKey: issue.externalKey,
    url: issue.url,
    title: issue.title,
    state: issue.state,
    lastSyncedAt: now,
  };
  return db
    .insertInto("trackerIssues")
    .values({ id: newId(), orgId: project.orgId, projectId: project.id, service, target, storyKey: story.key, createdAt: now, ...values })
    .onConflict((oc) => oc.columns(["projectId", "service", "target", "storyKey"]).doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Done, in progress and open issues of a project's stories. */
export async function deliveryProgress(viewer: Viewer, projectId: string) {
  const { project } = await projectAccess(viewer, projectId);
  return progressOf(project.id);
}

async function progressOf(projectId: string) {
  const rows = await db
    .selectFrom("trackerIssues")
    .select(["state", (eb) => eb.fn.countAll<number>().as("n")])
    .where("projectId", "=", projectId)
    .groupBy("state")
    .execute();
  const n = (s: string) => Number(rows.find((r) => r.state === s)?.n ?? 0);
  const done = n("done");
  const inProgress = n("in_progress");
  const open = n("open");
  return { total: done + inProgress + open, done, inProgress, open };
}

/** GET /api/projects/{projectId}/tracker/issues. */
export async function listTrackerIssues(viewer: Viewer, projectId: string) {
  const { project } = await projectAccess(viewer, projectId);
  const rows = await db.selectFrom("trackerIssues").selectAll().where("projectId", "=", project.id).orderBy("createdAt").orderBy("id").execute();
  return { issues: rows.map(presentIssue), progress: await progressOf(project.id) };
}
