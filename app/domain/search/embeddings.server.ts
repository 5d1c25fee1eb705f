import crypto from "node:crypto";
import { platformSettings, resolveProvider, type Resolved } from "~/ai/keys.server";
import { createProviderClient } from "~/ai/providers/index.server";
import { recordCall } from "~/ai/usage.server";
import { db, type Executor } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import type { JobHandler } from "~/jobs/types";
import { nowIso } from "~/utils/ids.server";

/**
 * PRD embeddings for semantic search. Each project has one vector per
 * embedding model (`provider:model`) over its name, description and PRD,
 * stored unit-length as float32 in SQLite. A change to any of these queues
 * a refresh (in the transaction that made it); the job embeds with the
 * organization's key or the platform's (never a personal key) and skips
 * the call when the text has not changed. Vectors of different models are
 * never compared.
 */

export const EMBED_TEXT_CHARS = 8000;
export const EMBED_JOB = "search.embed";

export const modelId = (resolved: Extract<Resolved, { provider: string; credentials: unknown }>) => `${resolved.provider}:${resolved.model}`;

export function toBlob(vector: number[]) {
  const norm = Math.hypot(...vector) || 1;
  return Buffer.from(new Float32Array(vector.map((v) => v / norm)).buffer);
}

export function fromBlob(blob: Buffer) {
  return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
}

export function dot(a: Float32Array, b: Float32Array) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** True when the organization's key or the platform can embed (so queuing a refresh is worth it). */
export async function canEmbed(executor: Executor, orgId: string) {
  if (platformSettings("provider_a").key || platformSettings("provider_a").baseUrl) return true;
  if (platformSettings("provider_c").key || platformSettings("provider_c").baseUrl) return true;
  const key = await executor
    .selectFrom("aiProviderKeys")
    .select("id")
    .where("scope", "=", "organization")
    .where("orgId", "=", orgId)
    .where("provider", "in", ["provider_a", "provider_c"])
    .executeTakeFirst();
  return Boolean(key);
}

/** Queues a refresh of the project's embedding; call it in the transaction that changed the text. */
export async function queueEmbedding(trx: Executor, project: { id: string; orgId: string }) {
  if (!(await canEmbed(trx, project.orgId))) return;
  await enqueue(trx, EMBED_JOB, { projectId: project.id }, { maxAttempts: 3 });
}

/** Embeds one project's text with the organization's (or platform's) embedding provider, when there is one. */
export async function refreshEmbedding(projectId: string) {
  const project = await db
    .selectFrom("projects as p")
    .leftJoin("prds as d", "d.projectId", "p.id")
    .select(["p.id", "p.orgId", "p.name", "p.description", "p.createdById", "d.content"])
    .where("p.id", "=", projectId)
    .executeTakeFirst();
  if (!project) return { embedded: false, reason: "project deleted" };
  const resolved = await resolveProvider({ userId: project.createdById ?? "", orgId: project.orgId }, { capability: "embed", personal: false });
  if (resolved.source === "builtin") return { embedded: false, reason: "no embedding provider" };
  const text = `${project.name}\n${project.description}\n${project.content ?? ""}`.slice(0, EMBED_TEXT_CHARS);
  const hash = crypto.createHash("sha256").update(text).digest("hex");
  const model = modelId(resolved);
  const current = await db
    .selectFrom("projectEmbeddings")
    .select("contentHash")
    .where("projectId", "=", project.id)
    .where("model", "=", model)
    .executeTakeFirst();
  if (current?.contentHash === hash) return { embedded: false, reason: "unchanged" };
  const client = createProviderClient(resolved.credentials);
  if (!client.embed) return { embedded: false, reason: "provider has no embeddings" };
  const startedAt = performance.now();
  const result = await client.embed([text]);
  await recordCall({
    orgId: project.orgId,
    userId: null,
    projectId: project.id,
    task: "embed",
    provider: resolved.provider,
    model: resolved.model,
    keySource: resolved.source,
    usage: result.usage,
    outcome: "ok",
    startedAt,
  });
  const vector = result.vectors[0]!;
  const row = { contentHash: hash, dims: vector.length, vector: toBlob(vector), updatedAt: nowIso() };
  await db
    .insertInto("projectEmbeddings")
    .values({ projectId: project.id, orgId: project.orgId, model, ...row })
    .onConflict((oc) => oc.columns(["projectId", "model"]).doUpdateSet(row))
    .execute();
  return { embedded: true, reason: "updated" };
}

/** Refreshes one project's embedding (listed in app/jobs/handlers.server.ts). */
export const embedJob: JobHandler = {
  async run({ projectId }: { projectId: string }) {
    await refreshEmbedding(projectId);
  },
};

/** Queues a refresh for every project of the organization (after an organization key is added). */
export async function queueOrgEmbeddings(orgId: string) {
  const projects = await db.selectFrom("projects").select(["id", "orgId"]).where("orgId", "=", orgId).execute();
  await db.transaction().execute(async (trx) => {
    for (const p of projects) await queueEmbedding(trx, p);
  });
  return projects.length;
}
