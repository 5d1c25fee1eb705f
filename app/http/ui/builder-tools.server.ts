import { PROVIDER_SHORT, type ProviderId } from "~/ai/types";
import type { Actor } from "~/domain/actor";
import { saveAnswersAsMemories } from "~/domain/builder/answer-memories.server";
import { redirectWithNotice } from "./flash.server";

/**
 * The builder page's tools (docs/projects.md, "The AI builder"): "Save what I
 * said as memories" redirects to the page listing what was saved. (A
 * recording posted to the page is read in the route, which may use the
 * API layer's streaming multipart parser.)
 */

export const isMultipart = (request: Request) => (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");

export function memoriesNotice(r: { extracted: number; saved: number; model: string; provider: string }) {
  const known = r.extracted - r.saved;
  const found =
    r.extracted === 0
      ? "Found nothing lasting to remember in your answers."
      : `Found ${r.extracted}, saved ${r.saved}${known > 0 ? ` (${known} you already had)` : ""}.`;
  const by =
    r.model === "builtin"
      ? "Read by the built-in offline drafter (rule-based, no AI)."
      : `Read by ${PROVIDER_SHORT[r.provider as ProviderId] ?? r.provider} (${r.model}).`;
  return `${found} ${by}`;
}

/**
 * Runs the extraction over the caller's answers, then shows the page with the
 * saved memories (post/redirect/get). The route runs it under the policy of
 * POST /api/memory/extract (the same per-user AI rate and concurrency).
 */
export async function saveMemoriesAction(actor: Actor, projectId: string, provider: string | undefined, request: Request) {
  const result = await saveAnswersAsMemories(actor, projectId, { provider }, request.signal);
  const ids = result.memories.map((m) => m.id).join(",");
  return redirectWithNotice(`/projects/${projectId}/builder?memories=${encodeURIComponent(ids)}#memories`, memoriesNotice(result));
}

/** The memory ids in the page's address after a save: null when the page was not reached that way. */
export function savedMemoryIds(request: Request) {
  const url = new URL(request.url);
  if (!url.searchParams.has("memories")) return null;
  return (url.searchParams.get("memories") ?? "").split(",").filter(Boolean).slice(0, 50);
}
