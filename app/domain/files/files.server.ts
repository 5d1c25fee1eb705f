import crypto from "node:crypto";
import { sql } from "kysely";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError, notFound } from "../errors";
import { recordChange } from "../projects/activity.server";
import { projectAccess, requireEdit } from "../projects/access.server";
import { MAX_FILE_BYTES, MAX_FILENAME_LENGTH, UNSAFE_NAME_CHARS, type ListFilesQuery } from "./files.schema";
import { assertFolderOfProject, folderRows } from "./folders.server";

/**
 * Files of a project. The bytes live in `blobs` (so backups and LiteFS
 * replication hold everything); a `projectFiles` row names them. A blob is
 * shared by identical uploads within one project and goes with the last
 * file that uses it (a trigger in migration 0002).
 */

export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/**
 * A safe display and download name: the last path segment, without control
 * or bidi-override characters, at most 200 characters (keeping a short
 * extension when it has to cut).
 */
export function sanitizeFilename(raw: string): string {
  let name = (raw ?? "").normalize("NFC");
  name = name.split(/[/\\]/).pop() ?? "";
  name = name.replace(UNSAFE_NAME_CHARS, "").trim();
  if (name === "" || name === "." || name === "..") name = "upload";
  const chars = Array.from(name);
  if (chars.length > MAX_FILENAME_LENGTH) {
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 ? Array.from(name.slice(dot)) : [];
    const keep = ext.length > 0 && ext.length <= 20 ? ext : [];
    name =
      chars
        .slice(0, MAX_FILENAME_LENGTH - keep.length)
        .join("")
        .trimEnd() + keep.join("");
  }
  return name;
}

const MIME = /^[a-z0-9!#$&^_.+-]{1,100}\/[a-z0-9!#$&^_.+-]{1,100}$/;

/** The part's content type without parameters, lowercased; anything unreadable is application/octet-stream. */
export function normalizeContentType(raw: string | null | undefined): string {
  const essence = (raw ?? "").split(";")[0]!.trim().toLowerCase();
  return MIME.test(essence) ? essence : DEFAULT_CONTENT_TYPE;
}

/**
 * Types a browser could render or run (HTML, SVG, XML, scripts) are served as
 * application/octet-stream so an uploaded file can never execute in the
 * app's origin; everything else is served as stored.
 */
export function downloadContentType(stored: string): string {
  const t = normalizeContentType(stored);
  const active =
    t === "text/html" ||
    t === "image/svg+xml" ||
    t === "application/xhtml+xml" ||
    t === "text/xml" ||
    t === "application/xml" ||
    t.endsWith("+xml") ||
    t.includes("javascript") ||
    t.includes("ecmascript") ||
    t === "text/xsl" ||
    t === "application/xslt+xml" ||
    t === "multipart/x-mixed-replace";
  return active ? DEFAULT_CONTENT_TYPE : t;
}

export const downloadUrl = (projectId: string, fileId: string) => `/api/projects/${encodeURIComponent(projectId)}/files/${encodeURIComponent(fileId)}`;

function fileQuery(executor: Executor, projectId: string) {
  return executor
    .selectFrom("projectFiles as f")
    .leftJoin("users as u", "u.id", "f.uploadedById")
    .select([
      "f.id",
      "f.projectId",
      "f.folderId",
      "f.blobId",
      "f.filename",
      "f.contentType",
      "f.size",
      "f.uploadedById",
      "f.createdAt",
      "u.name as uploadedByName",
    ])
    .where("f.projectId", "=", projectId);
}
type FileRow = Awaited<ReturnType<ReturnType<typeof fileQuery>["executeTakeFirstOrThrow"]>>;

export function presentFile(f: FileRow) {
  return {
    id: f.id,
    filename: f.filename,
    contentType: f.contentType,
    size: f.size,
    folderId: f.folderId,
    uploadedBy: f.uploadedById ? { id: f.uploadedById, name: f.uploadedByName ?? "" } : null,
    createdAt: f.createdAt,
    downloadUrl: downloadUrl(f.projectId, f.id),
  };
}
export type FileOut = ReturnType<typeof presentFile>;

/**
 * The project's files (all, or those of one folder; `root` = outside any
 * folder) and all its folders, so a client can draw the tree in one call.
 */
export async function listFiles(actor: Actor, projectId: string, query: ListFilesQuery = {}) {
  await projectAccess(actor, projectId);
  let q = fileQuery(db, projectId);
  if (query.folderId === "root") q = q.where("f.folderId", "is", null);
  else if (query.folderId) {
    await assertFolderOfProject(db, projectId, query.folderId, "folderId");
    q = q.where("f.folderId", "=", query.folderId);
  }
  const rows = await q.orderBy(sql`f.filename COLLATE NOCASE`).orderBy("f.createdAt").orderBy("f.id").execute();
  return { files: rows.map(presentFile), folders: await folderRows(db, projectId) };
}

/** One file's metadata and bytes, for download. */
export async function readFile(actor: Actor, projectId: string, fileId: string) {
  await projectAccess(actor, projectId);
  const row = await fileQuery(db, projectId).where("f.id", "=", fileId).executeTakeFirst();
  if (!row) throw notFound("File");
  const blob = await db.selectFrom("blobs").select(["data", "sha256"]).where("id", "=", row.blobId).executeTakeFirst();
  if (!blob) throw notFound("File");
  return { file: presentFile(row), data: blob.data, sha256: blob.sha256 };
}

/**
 * Refuses callers who may not upload before the route reads the body, so a
 * 10 MB body from someone without edit access is never streamed.
 */
export async function assertCanUpload(actor: Actor, projectId: string) {
  await requireEdit(actor, projectId);
}

export interface UploadInput {
  filename: string;
  contentType?: string | null;
  data: Buffer;
  folderId?: string;
}

/** Stores the bytes and the file row in one transaction. */
export async function uploadFile(actor: Actor, projectId: string, input: UploadInput) {
  if (input.data.byteLength > MAX_FILE_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", 413, "The file is larger than 10 MB", { extra: { limit: MAX_FILE_BYTES } });
  }
  const filename = sanitizeFilename(input.filename);
  const contentType = normalizeContentType(input.contentType);
  const size = input.data.byteLength;
  const sha256 = crypto.createHash("sha256").update(input.data).digest("hex");
  return db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const folderId = input.folderId ?? null;
    if (folderId) await assertFolderOfProject(trx, projectId, folderId, "folderId");
    const now = nowIso();
    // Identical bytes already in this project share their blob.
    const same = await trx
      .selectFrom("projectFiles as f")
      .innerJoin("blobs as b", "b.id", "f.blobId")
      .select("b.id")
      .where("f.projectId", "=", projectId)
      .where("f.size", "=", size)
      .where("b.sha256", "=", sha256)
      .executeTakeFirst();
    let blobId = same?.id;
    if (!blobId) {
      blobId = newId();
      await trx.insertInto("blobs").values({ id: blobId, data: input.data, size, sha256, createdAt: now }).execute();
    }
    const id = newId();
    await trx
      .insertInto("projectFiles")
      .values({ id, projectId, folderId, blobId, filename, contentType, size, uploadedById: actor.user.id, createdAt: now })
      .execute();
    await recordChange(trx, {
      project,
      actor,
      action: "file.uploaded",
      summary: `${actor.user.name} uploaded “${filename}”`,
      data: { fileId: id, filename, size, contentType, folderId },
    });
    return presentFile((await fileQuery(trx, projectId).where("f.id", "=", id).executeTakeFirst())!);
  });
}

/** Deletes a file; its blob goes with it unless another file of the project has the same bytes. */
export async function deleteFile(actor: Actor, projectId: string, fileId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const file = await trx
      .selectFrom("projectFiles")
      .select(["id", "filename", "size"])
      .where("id", "=", fileId)
      .where("projectId", "=", projectId)
      .executeTakeFirst();
    if (!file) throw notFound("File");
    await trx.deleteFrom("projectFiles").where("id", "=", file.id).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "file.deleted",
      summary: `${actor.user.name} deleted “${file.filename}”`,
      data: { fileId: file.id, filename: file.filename, size: file.size },
    });
  });
}
