import { isPrimary } from "~/db.server";
import { logger } from "~/utils/log.server";
import type { Actor } from "../actor";
import { ACTIVITY_WINDOW_MS, recordActivity } from "./profile.server";

/**
 * Page use counts as activity, as `POST /api/user/activity` does: at most one
 * write per user per 5 minutes. The process remembers when it last recorded
 * each user, so a page view inside the window (and the several loaders of one
 * page) costs no query at all; the conditional upsert in `recordActivity`
 * still guards the window across processes. Replicas do not write: the user's
 * next form post is replayed to the primary, which records it there.
 */
const lastRecorded = new Map<string, number>();
const MAX_TRACKED = 10_000;

export async function notePageActivity(actor: Actor, now = Date.now()): Promise<boolean> {
  const last = lastRecorded.get(actor.user.id);
  if (last !== undefined && now - last < ACTIVITY_WINDOW_MS) return false;
  if (!isPrimary()) return false;
  if (lastRecorded.size >= MAX_TRACKED) lastRecorded.clear();
  lastRecorded.set(actor.user.id, now);
  try {
    const { recorded } = await recordActivity(actor, new Date(now));
    return recorded;
  } catch (error) {
    // Activity is a statistic: a failed write (disk full, busy) never fails the page.
    lastRecorded.delete(actor.user.id);
    logger.warn("page activity not recorded", { error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}
