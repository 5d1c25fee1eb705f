import { config } from "~/config.server";
import { db } from "~/db.server";
import { logger } from "~/utils/log.server";
import type { Actor } from "../actor";
import { isSuperadmin } from "../users/users.server";
import { AppError } from "../errors";
import { savePrd } from "../prd/prd.server";
import { jsonToMarkdown, readLiveDoc } from "./document.server";
import type { LiveDoc } from "./live-doc.server";
import { compact, nextTurn, reconcile, resetLive } from "./reconcile.server";

/**
 * Versions of the live document: after a pause in typing (LIVE_IDLE_MS, 10 s
 * by default), at the latest MAX_UNSAVED_MS after the first unsaved edit, on
 * demand (POST …/prd/live/versions) and at shutdown, the document is
 * converted to Markdown and, when it differs from the saved PRD, saved with
 * savePrd as the last editor (source `live`): versions, activity, events,
 * search and ETags follow as for any save. A document that is no longer a
 * valid editor document is never saved: it is reset to the saved PRD.
 */

export const MAX_UNSAVED_MS = 60_000;
/** The largest PRD a save accepts (prd.schema.ts). */
const MAX_CONTENT = 2_000_000;

export interface CheckpointResult {
  saved: boolean;
  versionId: string | null;
  versionNumber: number | null;
}

/** (Re)starts the idle timer after an edit; the first unsaved edit also starts the MAX_UNSAVED_MS one. */
export function scheduleCheckpoint(live: LiveDoc) {
  if (live.evicted) return;
  clearTimeout(live.timers.idle);
  live.timers.idle = setTimeout(() => void checkpointLive(live, "idle"), config().LIVE_IDLE_MS).unref();
  live.firstDirtyAt ??= Date.now();
  if (!live.timers.max) {
    const wait = Math.max(0, live.firstDirtyAt + MAX_UNSAVED_MS - Date.now());
    live.timers.max = setTimeout(() => void checkpointLive(live, "max"), wait).unref();
  }
}

/**
 * Saves the live document as a PRD version if it holds unsaved edits. Runs
 * in the document's queue; never throws (a failure is logged and the edits
 * stay unsaved, to be saved by the next checkpoint).
 */
export function checkpointLive(live: LiveDoc, reason: "idle" | "max" | "manual" | "shutdown" | "memory", requester?: Actor): Promise<CheckpointResult> {
  clearTimeout(live.timers.idle);
  clearTimeout(live.timers.max);
  live.timers.idle = undefined;
  live.timers.max = undefined;
  return live.run(async () => {
    const outcome = await checkpointNow(live, requester).catch((error) => {
      logger.warn(`[live] the ${reason} checkpoint failed; the edits stay unsaved`, { projectId: live.projectId, error });
      return null;
    });
    if (live.dirty && !live.evicted) {
      // Edits came in meanwhile, or the save failed: the next try is a pause (or 60 s) from now, never at once.
      live.firstDirtyAt = Date.now();
      scheduleCheckpoint(live);
    }
    return outcome ?? { saved: false, versionId: live.versionId, versionNumber: null };
  });
}

async function checkpointNow(live: LiveDoc, requester?: Actor): Promise<CheckpointResult> {
  const unchanged = { saved: false, versionId: live.versionId, versionNumber: null };
  if (!live.dirty || live.evicted) return unchanged;
  const started = live.seq;
  const read = readLiveDoc(live.doc);
  if (!read.ok) {
    await resetLive(live, read.reason);
    return { ...unchanged, versionId: live.versionId };
  }
  await nextTurn();
  let markdown: string;
  try {
    markdown = jsonToMarkdown(read.json);
  } catch (error) {
    await resetLive(live, `the document does not convert to Markdown: ${error instanceof Error ? error.message : String(error)}`);
    return { ...unchanged, versionId: live.versionId };
  }
  if (markdown.length > MAX_CONTENT) {
    await resetLive(live, `the document is longer than ${MAX_CONTENT} characters`);
    return { ...unchanged, versionId: live.versionId };
  }
  await nextTurn();
  if (markdown === live.baseMarkdown) {
    settle(live, started);
    await compact(live);
    return unchanged;
  }
  // The last editor with their role as it is now (a save checks edit rights again).
  const actor = (live.lastEditor && (await editorActor(live.projectId, live.lastEditor.userId))) ?? requester;
  if (!actor) throw new Error("nobody to save the version as");
  let result: Awaited<ReturnType<typeof savePrd>>;
  try {
    result = await savePrd(
      actor,
      live.projectId,
      { content: markdown, baseVersionId: live.versionId ?? undefined, merge: live.versionId ? true : undefined },
      { mode: "put", source: "live" },
    );
  } catch (error) {
    // A save made elsewhere that overlaps these edits: its reconcile (queued) merges it in, and the next checkpoint saves the merge.
    if (error instanceof AppError && error.code === "CONFLICT") return unchanged;
    throw error;
  }
  const { prd } = result;
  if (prd.content === markdown) {
    live.versionId = prd.versionId;
    live.baseMarkdown = markdown;
    settle(live, started);
    await compact(live);
    live.broadcast({ type: "version", versionId: prd.versionId, versionNumber: prd.versionNumber });
  } else {
    // savePrd merged these edits with a save made meanwhile: bring that save into the document (base: what was just saved from it).
    live.baseMarkdown = markdown;
    live.dirty = true;
    await reconcile(live, { content: prd.content, versionId: prd.versionId, versionNumber: prd.versionNumber });
  }
  return { saved: true, versionId: prd.versionId, versionNumber: prd.versionNumber };
}

/** After a checkpoint of the document as it was at `seq`: still dirty if edits came in meanwhile (they start a new unsaved stretch). */
function settle(live: LiveDoc, seq: number) {
  live.dirty = live.seq !== seq;
  live.firstDirtyAt = live.dirty ? Date.now() : null;
}

/** The last editor as an actor in the project's organization, with their current role. */
async function editorActor(projectId: string, userId: string): Promise<Actor | undefined> {
  const row = await db
    .selectFrom("projects as p")
    .innerJoin("memberships as m", (j) => j.onRef("m.orgId", "=", "p.orgId").on("m.userId", "=", userId))
    .innerJoin("users as u", "u.id", "m.userId")
    .innerJoin("organizations as o", "o.id", "p.orgId")
    .select(["u.id", "u.email", "u.name", "u.emailVerifiedAt", "u.timezone", "m.role", "o.id as orgId", "o.name as orgName", "o.plan"])
    .where("p.id", "=", projectId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    user: { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerifiedAt !== null, timezone: row.timezone },
    org: { id: row.orgId, name: row.orgName, plan: row.plan },
    role: row.role,
    via: "session",
    isSuperadmin: isSuperadmin(row),
    ip: null,
    userAgent: "live-editing",
  };
}
