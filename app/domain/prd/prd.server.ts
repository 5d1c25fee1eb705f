import { compiledQuery, db, type Executor, type Slots } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError, notFound } from "../errors";
import { emit } from "../events/events.server";
import { recordChange } from "../projects/activity.server";
import { projectAccess, requireEdit, type Viewer } from "../projects/access.server";
import { indexProject } from "../search/search-index.server";
import { diffTexts } from "./diff.server";
import { mergePrd } from "./merge";
import type { PatchPrdInput } from "./prd.schema";

const prdWithVersion = compiledQuery((p: Slots<"projectId">) =>
  db
    .selectFrom("prds as d")
    .leftJoin("prdVersions as v", "v.id", "d.currentVersionId")
    .leftJoin("users as u", "u.id", "d.updatedById")
    .selectAll("d")
    .select(["v.number as versionNumber", "u.name as updatedByName"])
    .where("d.projectId", "=", p.projectId),
);

async function loadPrd(executor: Executor, projectId: string) {
  const { rows } = await prdWithVersion({ projectId }, executor);
  return rows[0];
}
type PrdRow = NonNullable<Awaited<ReturnType<typeof loadPrd>>>;

function presentPrd(row: PrdRow) {
  return {
    projectId: row.projectId,
    content: row.content,
    style: row.style,
    versionId: row.currentVersionId,
    versionNumber: row.versionNumber ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedById ? { id: row.updatedById, name: row.updatedByName } : null,
  };
}
export type PrdOut = ReturnType<typeof presentPrd>;

/** The content of one of the project's versions, or null when the id names none of them. */
async function versionContent(trx: Executor, projectId: string, versionId: string) {
  const row = await trx.selectFrom("prdVersions").select("content").where("id", "=", versionId).where("projectId", "=", projectId).executeTakeFirst();
  return row?.content ?? null;
}

export async function getPrd(viewer: Viewer, projectId: string) {
  await projectAccess(viewer, projectId);
  const row = await loadPrd(db, projectId);
  if (!row) throw notFound("PRD (this project has no PRD yet)");
  return presentPrd(row);
}

/** A committed save that changed a PRD's content. */
export interface PrdSaved {
  projectId: string;
  versionId: string | null;
  /** The version's `source`: create, edit, restore, improve, import, live... */
  source: string;
  actorId: string;
}
type PrdSavedListener = (saved: PrdSaved) => void;
const savedListeners = new Set<PrdSavedListener>();

/**
 * Calls `listener` after every committed save that changed a PRD's content,
 * whoever made it (API, form, AI, restore). The live document registers one
 * when it first loads (app/domain/live/), so editors see saves made elsewhere
 * at once; this module imports nothing of it. Returns the unsubscribe function.
 */
export function onPrdSaved(listener: PrdSavedListener): () => void {
  savedListeners.add(listener);
  return () => savedListeners.delete(listener);
}

/**
 * Creates or updates the PRD. A change of content creates a version; a save
 * based on an older version than the current one is 409 CONFLICT with the
 * current PRD, so nobody silently overwrites a colleague.
 */
export async function savePrd(
  actor: Actor,
  projectId: string,
  input: PatchPrdInput,
  options: {
    mode: "put" | "patch";
    expectedVersionId?: string;
    source?: string;
    /** Set when an AI generation wrote this content: recorded as `prd.generated` (and `prd.updated`). */
    generated?: { model: string; truncated: boolean };
  },
) {
  const { saved, ...result } = await savePrdInTransaction(actor, projectId, input, options);
  if (saved) {
    for (const listener of savedListeners) {
      try {
        listener(saved);
      } catch (error) {
        console.error("[prd] a listener of saved PRDs failed", error);
      }
    }
  }
  return result;
}

async function savePrdInTransaction(actor: Actor, projectId: string, input: PatchPrdInput, options: Parameters<typeof savePrd>[3]) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const existing = await loadPrd(trx, projectId);
    if (!existing && options.mode === "patch") {
      throw notFound("PRD (this project has no PRD yet; POST one first)");
    }
    const expected = options.expectedVersionId ?? input.baseVersionId;
    let content = input.content ?? existing?.content ?? "";
    let merged = false;
    if (existing && expected && expected !== existing.currentVersionId) {
      // Asked to merge: the edits of both saves since their common version are combined, unless they overlap.
      const base = input.merge && input.content !== undefined ? await versionContent(trx, projectId, expected) : null;
      const result = base === null ? null : mergePrd(base, input.content!, existing.content);
      if (!result?.clean) {
        throw new AppError(
          "CONFLICT",
          409,
          result
            ? `Your changes and v${existing.versionNumber ?? "?"} (saved since you started) edit the same lines in ${result.conflicts.length} place${result.conflicts.length === 1 ? "" : "s"}. Choose for each, then save again.`
            : `Someone saved a newer version of this PRD (v${existing.versionNumber ?? "?"}) since you started editing. Compare your text with theirs and save again.`,
          { extra: { current: presentPrd(existing), ...(result ? { conflicts: result.conflicts } : {}) } },
        );
      }
      content = result.content;
      merged = true;
    }
    const style = input.style ?? existing?.style ?? null;
    const contentChanged = !existing || content !== existing.content;
    if (existing && !contentChanged && style === existing.style) return { prd: presentPrd(existing), created: false, merged, saved: null };

    const now = nowIso();
    const source = options.source ?? (existing ? "edit" : "create");
    let versionId = existing?.currentVersionId ?? null;
    let number = existing?.versionNumber ?? null;
    if (contentChanged) {
      const last = await trx
        .selectFrom("prdVersions")
        .select((eb) => eb.fn.max("number").as("n"))
        .where("projectId", "=", projectId)
        .executeTakeFirst();
      number = Number(last?.n ?? 0) + 1;
      versionId = newId();
      await trx
        .insertInto("prdVersions")
        .values({
          id: versionId,
          projectId,
          number,
          content,
          style,
          label: options.generated?.truncated ? "Generated (cut off at the model's output limit)" : null,
          source,
          createdById: actor.user.id,
          createdAt: now,
        })
        .execute();
    }
    const row = { content, style, currentVersionId: versionId, updatedById: actor.user.id, updatedAt: now };
    if (existing) await trx.updateTable("prds").set(row).where("projectId", "=", projectId).execute();
    else
      await trx
        .insertInto("prds")
        .values({ ...row, projectId, createdAt: now })
        .execute();
    await trx.updateTable("projects").set({ updatedAt: now }).where("id", "=", projectId).execute();
    if (contentChanged) await indexProject(trx, projectId);
    const data = { versionId, versionNumber: number, style };
    if (options.generated) {
      const { model, truncated } = options.generated;
      await recordChange(trx, {
        project,
        actor,
        action: "prd.generated",
        summary: `${actor.user.name} generated the PRD (v${number}) with ${model === "builtin" ? "the offline drafter" : model}`,
        data: { ...data, model, truncated },
        event: "prd.generated",
      });
      // Subscribers of prd.updated hear about every content change.
      await emit(trx, { orgId: project.orgId, name: "prd.updated", data: { projectId, ...data }, actorId: actor.user.id });
    } else {
      await recordChange(trx, {
        project,
        actor,
        action: "prd.updated",
        summary: existing
          ? contentChanged
            ? `${actor.user.name} edited the PRD (v${number})`
            : `${actor.user.name} changed the PRD style to ${style}`
          : `${actor.user.name} wrote the first version of the PRD`,
        data,
        event: "prd.updated",
      });
    }
    const saved: PrdSaved | null = contentChanged ? { projectId, versionId, source, actorId: actor.user.id } : null;
    return { prd: presentPrd((await loadPrd(trx, projectId))!), created: !existing, merged, saved };
  });
}

function presentVersion(v: {
  id: string;
  number: number;
  label: string | null;
  style: string | null;
  source: string;
  createdAt: string;
  createdById: string | null;
  createdByName: string | null;
  content: string;
}) {
  return {
    id: v.id,
    number: v.number,
    label: v.label,
    style: v.style,
    source: v.source,
    size: v.content.length,
    createdAt: v.createdAt,
    createdBy: v.createdById ? { id: v.createdById, name: v.createdByName } : null,
  };
}

function versionQuery(executor: Executor, projectId: string) {
  return executor
    .selectFrom("prdVersions as v")
    .leftJoin("users as u", "u.id", "v.createdById")
    .selectAll("v")
    .select("u.name as createdByName")
    .where("v.projectId", "=", projectId);
}

export async function listVersions(actor: Actor, projectId: string) {
  await projectAccess(actor, projectId);
  const rows = await versionQuery(db, projectId).orderBy("v.number", "desc").execute();
  return rows.map(presentVersion);
}

/** A named snapshot of the current PRD (e.g. "Sent to legal"). */
export async function createVersion(actor: Actor, projectId: string, input: { label?: string }) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const prd = await loadPrd(trx, projectId);
    if (!prd) throw notFound("PRD (this project has no PRD yet)");
    const last = await trx
      .selectFrom("prdVersions")
      .select((eb) => eb.fn.max("number").as("n"))
      .where("projectId", "=", projectId)
      .executeTakeFirst();
    const number = Number(last?.n ?? 0) + 1;
    const id = newId();
    await trx
      .insertInto("prdVersions")
      .values({
        id,
        projectId,
        number,
        content: prd.content,
        style: prd.style,
        label: input.label || `Version ${number}`,
        source: "snapshot",
        createdById: actor.user.id,
        createdAt: nowIso(),
      })
      .execute();
    await recordChange(trx, {
      project,
      actor,
      action: "prd.version_created",
      summary: `${actor.user.name} saved version ${number}${input.label ? ` “${input.label}”` : ""}`,
      data: { versionId: id, number, label: input.label ?? null },
      event: "prd.version_created",
    });
    const row = await versionQuery(trx, projectId).where("v.id", "=", id).executeTakeFirstOrThrow();
    return { ...presentVersion(row), content: row.content };
  });
}

/** One version with its content; with `compare` (a version id or `current`), a diff from that one to this. */
export async function getVersion(actor: Actor, projectId: string, versionId: string, compare?: string) {
  await projectAccess(actor, projectId);
  const row = await versionQuery(db, projectId).where("v.id", "=", versionId).executeTakeFirst();
  if (!row) throw notFound("Version");
  const version = { ...presentVersion(row), content: row.content };
  if (!compare) return { version };
  let from: { id: string; number: number | null; content: string };
  if (compare === "current") {
    const prd = await loadPrd(db, projectId);
    if (!prd) throw notFound("PRD");
    from = { id: "current", number: prd.versionNumber ?? null, content: prd.content };
  } else {
    const other = await versionQuery(db, projectId).where("v.id", "=", compare).executeTakeFirst();
    if (!other) throw notFound("Version to compare with");
    from = { id: other.id, number: other.number, content: other.content };
  }
  return {
    version,
    compare: {
      from: { id: from.id, number: from.number },
      to: { id: row.id, number: row.number },
      ...diffTexts(from.content, row.content),
    },
  };
}

/** Makes an old version's content current again (recorded as a new version). */
export async function restoreVersion(actor: Actor, projectId: string, versionId: string) {
  await projectAccess(actor, projectId);
  const row = await db
    .selectFrom("prdVersions")
    .select(["content", "style", "number"])
    .where("projectId", "=", projectId)
    .where("id", "=", versionId)
    .executeTakeFirst();
  if (!row) throw notFound("Version");
  return savePrd(actor, projectId, { content: row.content, style: (row.style ?? undefined) as never }, { mode: "put", source: "restore" });
}

/**
 * The stored PRD as it is now, without an access check (for callers that
 * checked already, like the live document): null while the project has none.
 */
export async function currentPrd(projectId: string) {
  const row = await loadPrd(db, projectId);
  return row ? { content: row.content, versionId: row.currentVersionId, versionNumber: row.versionNumber ?? null } : null;
}

/** The content of one version of the project's PRD, without an access check; null when there is no such version. */
export function prdVersionContent(projectId: string, versionId: string) {
  return versionContent(db, projectId, versionId);
}
