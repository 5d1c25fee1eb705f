import type { UploadMetric } from "#db/schema";
import { db, type Executor } from "~/db.server";
import type { Actor } from "../actor";
import { assertWithinLimit } from "../billing/limits.server";
import { newId, nowIso } from "~/utils/ids.server";

/**
 * Metered uploads (docs/billing.md, docs/uploads.md): `document_uploads` counts
 * documents processed this calendar month (UTC), `transcription_minutes` the
 * minutes transcribed this month. Both are read from `uploadUsage`.
 */

/** 403 LIMIT_REACHED unless `adding` more of the metric fits this month (checked before any work). */
export function assertUploadQuota(actor: Actor, metric: UploadMetric, adding = 1, executor: Executor = db) {
  return assertWithinLimit(executor, actor.org, metric, adding);
}

export async function recordUsage(executor: Executor, actor: Actor, metric: UploadMetric, amount: number, label: string) {
  await executor
    .insertInto("uploadUsage")
    .values({ id: newId(), orgId: actor.org.id, userId: actor.user.id, metric, amount, label: label.slice(0, 200), createdAt: nowIso() })
    .execute();
}
