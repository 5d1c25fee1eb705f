import crypto from "node:crypto";
import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { notFound } from "../errors";
import { sanitizeFilename } from "../files/files.server";
import { projectAccess, requireEdit, type Viewer } from "../projects/access.server";
import { undecodableImage } from "./image-bounds.server";
import { sniffImage } from "./sniff.server";
import { MAX_IMAGE_DIMENSION } from "./uploads.schema";
import { openUntrustedImage } from "~/utils/sharp.server";

/**
 * Images for a project (POST /api/upload/image). Nothing is stored as sent:
 * the bytes are sniffed, decoded and re-encoded with sharp (turned upright
 * by their EXIF orientation, all metadata dropped, at most 4096 px a side),
 * so a disguised or malformed file is refused and no EXIF location leaks.
 * PNG stays PNG (screenshots, diagrams); everything else becomes WebP.
 * Decoding is bounded (utils/sharp.server.ts: 40 megapixels, first frame
 * only, 10 s): past a bound the answer is 413 and nothing is stored.
 */

export const imageUrl = (id: string) => `/api/uploads/images/${encodeURIComponent(id)}`;

async function reencode(data: Buffer) {
  const detected = await sniffImage(data);
  try {
    const pipeline = (await openUntrustedImage(data))
      .rotate()
      .resize({ width: MAX_IMAGE_DIMENSION, height: MAX_IMAGE_DIMENSION, fit: "inside", withoutEnlargement: true });
    const png = detected.ext === "png";
    const { data: out, info } = await (png ? pipeline.png({ compressionLevel: 9 }) : pipeline.webp({ quality: 85 })).toBuffer({
      resolveWithObject: true,
    });
    return { data: out, width: info.width, height: info.height, contentType: png ? "image/png" : "image/webp" };
  } catch (error) {
    throw undecodableImage(error, detected.ext);
  }
}

export async function uploadImage(actor: Actor, projectId: string, file: { filename: string; data: Buffer }) {
  await requireEdit(actor, projectId);
  const image = await reencode(file.data);
  const id = newId();
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const blobId = newId();
    const sha256 = crypto.createHash("sha256").update(image.data).digest("hex");
    await trx.insertInto("blobs").values({ id: blobId, data: image.data, size: image.data.byteLength, sha256, createdAt: now }).execute();
    await trx
      .insertInto("uploadedImages")
      .values({
        id,
        orgId: project.orgId,
        projectId,
        blobId,
        contentType: image.contentType,
        width: image.width,
        height: image.height,
        size: image.data.byteLength,
        originalName: sanitizeFilename(file.filename),
        uploadedById: actor.user.id,
        createdAt: now,
      })
      .execute();
  });
  return { url: imageUrl(id), id, contentType: image.contentType, width: image.width, height: image.height, size: image.data.byteLength };
}

/** The stored bytes, for anyone who can read the image's project; 404 for everyone else. */
export async function readImage(viewer: Viewer, imageId: string) {
  const row = await db
    .selectFrom("uploadedImages as i")
    .innerJoin("blobs as b", "b.id", "i.blobId")
    .select(["i.id", "i.projectId", "i.contentType", "b.data", "b.sha256"])
    .where("i.id", "=", imageId)
    .executeTakeFirst();
  if (!row) throw notFound("Image");
  try {
    await projectAccess(viewer, row.projectId);
  } catch {
    throw notFound("Image");
  }
  return row;
}
