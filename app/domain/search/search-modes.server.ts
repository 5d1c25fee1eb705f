import type { Actor } from "../actor";
import { keywordSearch, parseStatuses, type SearchResult } from "./search.server";
import type { SearchMode, SearchQuery } from "./search.schema";
import { reciprocalRankFusion, semanticRank, type SemanticHit } from "./semantic.server";

/**
 * GET /api/search in its three modes. `keyword` is FTS5 (search.server.ts);
 * `semantic` ranks by embedding similarity; `hybrid` fuses the keyword and
 * semantic rankings (reciprocal rank fusion). When semantic ranking is not
 * available the answer is the keyword result, and `mode` says which mode
 * was actually used while `notice` says why.
 */

/** How many of each ranking hybrid fuses. */
const FUSION_DEPTH = 100;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function semanticResult(hit: SemanticHit, score: number): SearchResult {
  const text = hit.description.trim() || hit.name;
  return {
    projectId: hit.projectId,
    name: hit.name,
    status: hit.status,
    priority: hit.priority,
    updatedAt: hit.updatedAt,
    snippet: escapeHtml(text.length > 200 ? `${text.slice(0, 199)}…` : text),
    matchedIn: [],
    score,
  };
}

export async function searchProjects(actor: Actor, query: SearchQuery) {
  const requestedMode: SearchMode = query.mode;
  if (query.mode === "keyword") return { ...(await keywordSearch(actor, query)), requestedMode };

  const statuses = parseStatuses(query.status);
  const semantic = await semanticRank(actor, query.q);
  if (!semantic.available) {
    return { ...(await keywordSearch(actor, { ...query, mode: "keyword" })), requestedMode, notice: semantic.reason };
  }
  const hits = statuses.length ? semantic.hits.filter((h) => statuses.includes(h.status as never)) : semantic.hits;

  if (query.mode === "semantic") {
    const page = hits.slice(query.offset, query.offset + query.limit);
    return {
      results: page.map((h) => semanticResult(h, Math.round(h.similarity * 1000) / 1000)),
      total: hits.length,
      mode: "semantic" as const,
      requestedMode,
      query: query.q,
    };
  }

  // Hybrid: a query without any usable keyword is ranked by meaning alone.
  const keyword = await keywordSearch(actor, { ...query, mode: "keyword", limit: FUSION_DEPTH, offset: 0 }).catch(() => null);
  const byId = new Map<string, SearchResult>();
  for (const r of keyword?.results ?? []) byId.set(r.projectId, r);
  const semanticTop = hits.slice(0, FUSION_DEPTH);
  for (const h of semanticTop) if (!byId.has(h.projectId)) byId.set(h.projectId, semanticResult(h, 0));
  const fused = reciprocalRankFusion([(keyword?.results ?? []).map((r) => r.projectId), semanticTop.map((h) => h.projectId)]);
  const page = fused.slice(query.offset, query.offset + query.limit);
  return {
    results: page.map(({ id, score }) => ({ ...byId.get(id)!, score: Math.round(score * 10_000) / 10_000 })),
    total: fused.length,
    mode: "hybrid" as const,
    requestedMode,
    query: query.q,
  };
}
