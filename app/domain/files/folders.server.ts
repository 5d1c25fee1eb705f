import { type Selectable, sql } from "kysely";
import type { ProjectFoldersTable } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError, notFound, validationError } from "../errors";
import { recordChange } from "../projects/activity.server";
import { projectAccess, requireEdit } from "../projects/access.server";
import type { CreateFolderInput, UpdateFolderInput } from "./files.schema";
import { plural } from "~/utils/plural";

/**
 * Folders of a project: a tree (parentId, null at the root) whose sibling
 * names are unique regardless of case. Deleting a folder deletes its
 * subfolders (FK cascade) and moves every file in them to the project root
 * (projectFiles.folderId is SET NULL by the FK).
 */

type FolderRow = Pick<Selectable<ProjectFoldersTable>, "id" | "name" | "parentId" | "createdAt" | "updatedAt">;

export function presentFolder(f: FolderRow) {
  return { id: f.id, name: f.name, parentId: f.parentId, createdAt: f.createdAt, updatedAt: f.updatedAt };
}
export type FolderOut = ReturnType<typeof presentFolder>;

const folderColumns = ["id", "name", "parentId", "createdAt", "updatedAt"] as const;

/** All folders of a project, flat (each names its parentId), by name. */
export async function folderRows(executor: Executor, projectId: string) {
  const rows = await executor
    .selectFrom("projectFolders")
    .select([...folderColumns])
    .where("projectId", "=", projectId)
    .orderBy(sql`name COLLATE NOCASE`)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map(presentFolder);
}

/** A folder of this project, or 404 (an id from another project is not found). */
async function loadFolder(executor: Executor, projectId: string, folderId: string) {
  const folder = await executor.selectFrom("projectFolders").selectAll().where("id", "=", folderId).where("projectId", "=", projectId).executeTakeFirst();
  if (!folder) throw notFound("Folder");
  return folder;
}

/** A folder id given as input (parentId, folderId) must name a folder of the same project: else 400. */
export async function assertFolderOfProject(executor: Executor, projectId: string, folderId: string, field: string) {
  const folder = await executor.selectFrom("projectFolders").select("id").where("id", "=", folderId).where("projectId", "=", projectId).executeTakeFirst();
  if (!folder) throw validationError(field, "No folder of this project has that id");
}

const fold = (name: string) => name.normalize("NFC").toLocaleLowerCase("und");

/** Sibling names are unique, compared without case (Unicode-aware, unlike SQLite's NOCASE). */
async function assertNameFree(executor: Executor, projectId: string, parentId: string | null, name: string, exceptId?: string) {
  let q = executor.selectFrom("projectFolders").select(["id", "name"]).where("projectId", "=", projectId);
  q = parentId === null ? q.where("parentId", "is", null) : q.where("parentId", "=", parentId);
  const siblings = await q.execute();
  const wanted = fold(name);
  const clash = siblings.find((s) => s.id !== exceptId && fold(s.name) === wanted);
  if (clash) {
    throw new AppError("CONFLICT", 409, `A folder named “${clash.name}” already exists here`, {
      details: [{ path: "name", message: "Sibling folder names must be unique (ignoring case)" }],
    });
  }
}

/** Ids of a folder and all folders below it. */
async function subtreeIds(executor: Executor, folderId: string) {
  const rows = await sql<{ id: string }>`
    WITH RECURSIVE tree(id) AS (
      SELECT id FROM projectFolders WHERE id = ${folderId}
      UNION
      SELECT f.id FROM projectFolders f JOIN tree t ON f.parentId = t.id
    )
    SELECT id FROM tree`.execute(executor);
  return rows.rows.map((r) => r.id);
}

export async function listFolders(actor: Actor, projectId: string) {
  await projectAccess(actor, projectId);
  return folderRows(db, projectId);
}

export async function createFolder(actor: Actor, projectId: string, input: CreateFolderInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const parentId = input.parentId ?? null;
    if (parentId) await assertFolderOfProject(trx, projectId, parentId, "parentId");
    await assertNameFree(trx, projectId, parentId, input.name);
    const now = nowIso();
    const folder = {
      id: newId(),
      projectId,
      parentId,
      name: input.name,
      createdById: actor.user.id,
      createdAt: now,
      updatedAt: now,
    };
    await trx.insertInto("projectFolders").values(folder).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "folder.created",
      summary: `${actor.user.name} created the folder “${folder.name}”`,
      data: { folderId: folder.id, name: folder.name, parentId },
    });
    return presentFolder(folder);
  });
}

/** Renames and/or moves a folder. `parentId: null` moves it to the root. */
export async function updateFolder(actor: Actor, projectId: string, folderId: string, input: UpdateFolderInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const folder = await loadFolder(trx, projectId, folderId);
    const name = input.name ?? folder.name;
    const parentId = input.parentId === undefined ? folder.parentId : input.parentId;
    if (name === folder.name && parentId === folder.parentId) return presentFolder(folder);

    if (parentId !== folder.parentId && parentId !== null) {
      if (parentId === folder.id) throw validationError("parentId", "A folder cannot be moved into itself");
      await assertFolderOfProject(trx, projectId, parentId, "parentId");
      if ((await subtreeIds(trx, folder.id)).includes(parentId)) {
        throw validationError("parentId", "A folder cannot be moved into one of its own subfolders");
      }
    }
    await assertNameFree(trx, projectId, parentId, name, folder.id);
    const updatedAt = nowIso();
    await trx.updateTable("projectFolders").set({ name, parentId, updatedAt }).where("id", "=", folder.id).execute();
    const renamed = name !== folder.name;
    const moved = parentId !== folder.parentId;
    await recordChange(trx, {
      project,
      actor,
      action: "folder.updated",
      summary: `${actor.user.name} ${[renamed ? `renamed the folder “${folder.name}” to “${name}”` : "", moved ? `moved the folder “${name}”` : ""].filter(Boolean).join(" and ")}`,
      data: {
        folderId: folder.id,
        ...(renamed ? { name: { from: folder.name, to: name } } : {}),
        ...(moved ? { parentId: { from: folder.parentId, to: parentId } } : {}),
      },
    });
    return presentFolder({ ...folder, name, parentId, updatedAt });
  });
}

/**
 * Deletes a folder and its subfolders; their files are kept and moved to the
 * project root. Returns how many files were moved.
 */
export async function deleteFolder(actor: Actor, projectId: string, folderId: string) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const folder = await loadFolder(trx, projectId, folderId);
    const ids = await subtreeIds(trx, folder.id);
    const count = await trx
      .selectFrom("projectFiles")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("projectId", "=", projectId)
      .where("folderId", "in", ids)
      .executeTakeFirstOrThrow();
    const movedFiles = Number(count.n);
    // The FKs do the rest: subfolders cascade, their files' folderId becomes NULL.
    await trx.deleteFrom("projectFolders").where("id", "=", folder.id).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "folder.deleted",
      summary: `${actor.user.name} deleted the folder “${folder.name}”${movedFiles ? ` and moved ${plural(movedFiles, "file")} to the project root` : ""}`,
      data: { folderId: folder.id, name: folder.name, deletedFolders: ids.length, movedFiles },
    });
    return { movedFiles };
  });
}
