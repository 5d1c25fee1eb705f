import { resolveProvider } from "~/ai/keys.server";
import { createProviderClient } from "~/ai/providers/index.server";
import { ProviderError } from "~/ai/types";
import { recordCall } from "~/ai/usage.server";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { readableProjects } from "../projects/access.server";
import { dot, fromBlob, modelId } from "./embeddings.server";

/**
 * Semantic ranking: the query is embedded with the caller's embedding
 * provider (personal, organization or platform key) and compared with the
 * stored PRD vectors of the same model by cosine similarity. Projects below
 * MIN_SIMILARITY are not results. When no provider applies, the index for
 * the model is empty, or the provider fails, the caller gets the reason and
 * falls back to keyword search.
 */

export const MIN_SIMILARITY = 0.2;

export interface SemanticHit {
  projectId: string;
  name: string;
  status: string;
  priority: string | null;
  updatedAt: string;
  description: string;
  similarity: number;
}

export type SemanticOutcome = { available: true; hits: SemanticHit[]; model: string } | { available: false; reason: string };

export async function semanticRank(actor: Actor, q: string): Promise<SemanticOutcome> {
  const resolved = await resolveProvider({ userId: actor.user.id, orgId: actor.org.id }, { capability: "embed" });
  if (resolved.source === "builtin") {
    return {
      available: false,
      reason: "No embedding provider is configured (an OpenAI or Google Gemini key, or an OpenAI-compatible server), so keyword search was used.",
    };
  }
  const model = modelId(resolved);
  const base = db
    .selectFrom("projectEmbeddings as e")
    .innerJoin("projects as p", "p.id", "e.projectId")
    .where("e.orgId", "=", actor.org.id)
    .where("e.model", "=", model)
    .where(readableProjects(actor));
  // Whether any readable project is indexed: the first one answers (a count would visit them all).
  const indexed = await base.select("e.projectId").limit(1).executeTakeFirst();
  if (!indexed) {
    return {
      available: false,
      reason: `The semantic index for ${resolved.model} is still empty (PRDs are indexed in the background as they are saved), so keyword search was used.`,
    };
  }
  const client = createProviderClient(resolved.credentials);
  if (!client.embed) return { available: false, reason: "The configured provider has no embeddings; keyword search was used." };
  let queryVector: Float32Array;
  const startedAt = performance.now();
  try {
    const result = await client.embed([q]);
    await recordCall({
      orgId: actor.org.id,
      userId: actor.user.id,
      projectId: null,
      task: "search_embed",
      provider: resolved.provider,
      model: resolved.model,
      keySource: resolved.source,
      usage: result.usage,
      outcome: "ok",
      startedAt,
    });
    const v = result.vectors[0] ?? [];
    const norm = Math.hypot(...v) || 1;
    queryVector = new Float32Array(v.map((x) => x / norm));
  } catch (error) {
    if (error instanceof ProviderError) {
      return { available: false, reason: `The embedding provider failed (${error.message}), so keyword search was used.` };
    }
    throw error;
  }
  const rows = await base.select(["p.id", "p.name", "p.status", "p.priority", "p.updatedAt", "p.description", "e.vector"]).execute();
  const hits: SemanticHit[] = [];
  for (const row of rows) {
    const vector = fromBlob(row.vector);
    if (vector.length !== queryVector.length) continue;
    const similarity = dot(queryVector, vector);
    if (similarity < MIN_SIMILARITY) continue;
    hits.push({
      projectId: row.id,
      name: row.name,
      status: row.status,
      priority: row.priority,
      updatedAt: row.updatedAt,
      description: row.description,
      similarity,
    });
  }
  hits.sort((a, b) => b.similarity - a.similarity || b.updatedAt.localeCompare(a.updatedAt));
  return { available: true, hits, model: resolved.model };
}

/** Reciprocal rank fusion (k = 60) of two rankings of project ids. */
export function reciprocalRankFusion(lists: string[][], k = 60) {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id, score]) => ({ id, score }));
}
