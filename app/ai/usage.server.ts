import type { AiCallsTable, AiKeySource } from "#db/schema";
import { db, isPrimary } from "~/db.server";
import { assertWithinLimit } from "~/domain/billing/limits.server";
import { countAiTokens } from "~/http/server/metrics.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Usage } from "./types";

/**
 * Token metering. Every provider call is logged in `aiCalls` with its token
 * usage; the organization's `ai_tokens` usage is the sum for the current
 * calendar month (UTC). When it reaches the plan's limit, calls that would
 * spend the platform's key are refused (403 LIMIT_REACHED); personal and
 * organization keys (billed to their owners) and the offline drafter keep
 * working. Offline drafts cost no tokens and are logged with zero usage.
 */

/** Refuses a call on the platform's key once the plan's monthly tokens are spent. */
export async function assertTokenBudget(org: Parameters<typeof assertWithinLimit>[1], source: AiKeySource) {
  if (source !== "platform") return;
  await assertWithinLimit(db, org, "ai_tokens", 1);
}

export interface CallRecord {
  orgId: string;
  userId: string | null;
  projectId: string | null;
  task: string;
  provider: string;
  model: string;
  keySource: AiKeySource;
  usage: Usage;
  outcome: AiCallsTable["outcome"];
  startedAt: number;
}

/** Logs a call where the database is writable (POSTs always are; a search GET on a LiteFS replica is not logged). */
export async function recordCall(call: CallRecord) {
  countAiTokens(call.provider, Math.max(0, Math.round(call.usage.inputTokens)), Math.max(0, Math.round(call.usage.outputTokens)));
  if (!isPrimary()) return;
  await db
    .insertInto("aiCalls")
    .values({
      id: newId(),
      orgId: call.orgId,
      userId: call.userId,
      projectId: call.projectId,
      task: call.task,
      provider: call.provider,
      model: call.model,
      keySource: call.keySource,
      inputTokens: Math.max(0, Math.round(call.usage.inputTokens)),
      outputTokens: Math.max(0, Math.round(call.usage.outputTokens)),
      outcome: call.outcome,
      durationMs: Math.max(0, Math.round(performance.now() - call.startedAt)),
      createdAt: nowIso(),
    })
    .execute();
}

/** Rough token count for text whose usage a provider did not report (≈ 4 characters a token). */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);
