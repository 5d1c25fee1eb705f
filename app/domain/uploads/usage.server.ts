import type { UploadMetric } from "#db/schema";
import { monthStart } from "~/ai/usage.server";
import { db, type Executor } from "~/db.server";
import type { Actor } from "../actor";
import { assertWithinLimit, registerUsageCounter } from "../billing/limits.server";
import { newId, nowIso } from "~/utils/ids.server";

/**
 * Metered uploads (docs/billing.md, docs/uploads.md): `document_uploads` counts
 * documents processed this calendar month (UTC), `transcription_minutes` the
 * minutes transcribed this month. Both are read from `uploadUsage`.
 */

async function usedThisMonth(executor: Executor, orgId: string, metric: UploadMetric) {
  const row = await executor
    .selectFrom("uploadUsage")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.val(0)).as("n"))
    .where("orgId", "=", orgId)
    .where("metric", "=", metric)
    .where("createdAt", ">=", monthStart())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

registerUsageCounter("document_uploads", (executor, orgId) => usedThisMonth(executor, orgId, "document_uploads"));
registerUsageCounter("transcription_minutes", (executor, orgId) => usedThisMonth(executor, orgId, "transcription_minutes"));

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
