import type { UploadMetric } from "#db/schema";
import type { Executor } from "~/db.server";
import { monthStart } from "~/utils/month";
import type { Metric } from "./plans";

/**
 * How each metered resource is counted, for the plan limits and the usage
 * page: one complete table (the type requires a counter for every metric),
 * not registrations scattered over the areas. Each counter is one query on
 * the area's table; monthly metrics count from the start of the UTC month.
 */

export type Counter = (db: Executor, orgId: string) => Promise<number>;

const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: number | string | null }> }) => Number((await q.executeTakeFirstOrThrow()).n ?? 0);

/** AI tokens (input + output) the organization's calls used this month. */
export const tokensThisMonth: Counter = (db, orgId) =>
  count(
    db
      .selectFrom("aiCalls")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb(eb.ref("inputTokens"), "+", eb.ref("outputTokens"))), eb.val(0)).as("n"))
      .where("orgId", "=", orgId)
      .where("createdAt", ">=", monthStart()),
  );

const uploadsThisMonth =
  (metric: UploadMetric): Counter =>
  (db, orgId) =>
    count(
      db
        .selectFrom("uploadUsage")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.val(0)).as("n"))
        .where("orgId", "=", orgId)
        .where("metric", "=", metric)
        .where("createdAt", ">=", monthStart()),
    );

export const COUNTERS: Record<Metric, Counter> = {
  members: (db, orgId) =>
    count(
      db
        .selectFrom("memberships")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("orgId", "=", orgId),
    ),
  projects: (db, orgId) =>
    count(
      db
        .selectFrom("projects")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("orgId", "=", orgId),
    ),
  api_keys: (db, orgId) => {
    const now = new Date().toISOString();
    return count(
      db
        .selectFrom("apiKeys")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("orgId", "=", orgId)
        .where("revokedAt", "is", null)
        .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", now)])),
    );
  },
  // Personal and organization templates; public and system ones belong to nobody's plan.
  templates: (db, orgId) =>
    count(
      db
        .selectFrom("templates")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("orgId", "=", orgId)
        .where("templateType", "in", ["personal", "organization"]),
    ),
  webhooks: (db, orgId) =>
    count(
      db
        .selectFrom("webhooks")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("orgId", "=", orgId),
    ),
  ai_tokens: tokensThisMonth,
  document_uploads: uploadsThisMonth("document_uploads"),
  transcription_minutes: uploadsThisMonth("transcription_minutes"),
};
