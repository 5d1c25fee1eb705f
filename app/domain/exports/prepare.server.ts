import { config } from "~/config.server";
import { db } from "~/db.server";
import { loadSharp } from "~/utils/sharp.server";
import { brandingForOrg } from "../branding/branding.server";
import { fetchRemoteLogo, isRemoteLogoUrl } from "../branding/remote-logo.server";
import { parseOrgSettings } from "../orgs/settings.server";
import { projectAccess, type Viewer } from "../projects/access.server";
import type { ExportBranding, ExportDocument, ExportImage } from "./document";
import { renderDiagrams } from "./mermaid.server";
import { referencesInWorker } from "./render-pool.server";

/**
 * Builds the ExportDocument of a source: the organization's
 * branding with its logo, the Mermaid diagrams rendered (mermaid.server) and
 * the images the markdown references loaded — only ours (uploaded images,
 * /api/uploads/images/{id}, relative or on APP_URL), never an external URL,
 * and renderers show the alt text of anything not in doc.images. The one
 * outside request an export may make is the organization's own logo when
 * an admin gave it as a URL: fetched through the guarded outbound request
 * (branding/remote-logo.server), no logo when that fails.
 *
 * Which uploaded images may be embedded: those of the same organization, and
 * of the exported project (source.projectId) or of a project `viewer` may
 * read. Without projectId nor viewer, none (safe by default).
 */

export interface PrepareSource {
  orgId: string;
  title: string;
  subtitle?: string | null;
  markdown: string;
  /** The exported project: its own images are always embedded. */
  projectId?: string | null;
  /** Who exports: images of other projects are embedded only when they may read them. */
  viewer?: Viewer | null;
}

const MAX_IMAGES = 50;
const MAX_IMAGE_BYTES_TOTAL = 40 * 1024 * 1024;
/** Longest side of an image in an export (print quality at page width). */
const MAX_EXPORT_DIMENSION = 2000;
const DEFAULT_PRIMARY = "#4f46e5";
const DEFAULT_ACCENT = "#0ea5e9";

export async function prepareDocument(source: PrepareSource): Promise<ExportDocument> {
  const refs = await referencesInWorker(source.markdown);
  const [branding, diagrams, images] = await Promise.all([
    loadBranding(source.orgId),
    refs.mermaid.length ? renderDiagrams(source.orgId, refs.mermaid) : Promise.resolve(new Map()),
    loadImages(source, refs.images),
  ]);
  return {
    title: source.title,
    subtitle: source.subtitle ?? null,
    markdown: source.markdown,
    generatedAt: new Date(),
    branding,
    diagrams,
    images,
  };
}

const hex = (value: unknown, fallback: string) =>
  typeof value === "string" && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value.trim()) ? value.trim().toLowerCase() : fallback;

async function loadBranding(orgId: string): Promise<ExportBranding> {
  const org = await db.selectFrom("organizations").select(["name", "settings"]).where("id", "=", orgId).executeTakeFirst();
  const branding = await brandingForOrg(orgId, db);
  const ref = parseOrgSettings(org?.settings).brandingLogo as { blobId?: string } | undefined;
  let logo: ExportImage | null = null;
  if (ref?.blobId) {
    const blob = await db.selectFrom("blobs").select("data").where("id", "=", ref.blobId).executeTakeFirst();
    const size = blob ? pngSize(blob.data) : null;
    if (blob && size) logo = { data: Buffer.from(blob.data), contentType: "image/png", ...size };
  } else if (isRemoteLogoUrl(branding.logoUrl)) {
    logo = await fetchRemoteLogo(branding.logoUrl);
  }
  return {
    primaryColor: hex(branding.primaryColor, DEFAULT_PRIMARY),
    accentColor: hex(branding.accentColor, DEFAULT_ACCENT),
    companyName: branding.companyName?.trim() || org?.name || null,
    logo,
  };
}

/** Width and height from a PNG's IHDR chunk; null when it is not a PNG. */
export function pngSize(data: Uint8Array): { width: number; height: number } | null {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.byteLength < 24 || sig.some((b, i) => data[i] !== b)) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width && height ? { width, height } : null;
}

/** The id of one of our uploaded images from a URL as written in markdown; null for anything else. */
export function uploadedImageId(url: string): string | null {
  let path = url.trim();
  const origin = config().APP_URL ? new URL(config().APP_URL!).origin : null;
  if (/^https?:\/\//i.test(path)) {
    let parsed: URL;
    try {
      parsed = new URL(path);
    } catch {
      return null;
    }
    if (!origin || parsed.origin !== origin) return null;
    path = parsed.pathname;
  }
  const m = /^\/api\/uploads\/images\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path);
  return m ? m[1]! : null;
}

async function loadImages(source: PrepareSource, urls: string[]): Promise<Map<string, ExportImage>> {
  const out = new Map<string, ExportImage>();
  const wanted = new Map<string, string[]>();
  for (const url of urls) {
    const id = uploadedImageId(url);
    if (id) wanted.set(id, [...(wanted.get(id) ?? []), url]);
  }
  if (wanted.size === 0) return out;
  const rows = await db
    .selectFrom("uploadedImages as i")
    .innerJoin("blobs as b", "b.id", "i.blobId")
    .select(["i.id", "i.projectId", "i.contentType", "i.width", "i.height", "b.data"])
    .where("i.orgId", "=", source.orgId)
    .where("i.id", "in", [...wanted.keys()].slice(0, MAX_IMAGES))
    .execute();
  const readable = new Map<string, boolean>();
  const mayRead = async (projectId: string) => {
    if (projectId === source.projectId) return true;
    if (!source.viewer) return false;
    if (!readable.has(projectId)) {
      readable.set(
        projectId,
        await projectAccess(source.viewer, projectId).then(
          () => true,
          () => false,
        ),
      );
    }
    return readable.get(projectId)!;
  };
  let total = 0;
  for (const row of rows) {
    if (!(await mayRead(row.projectId))) continue;
    const image = await exportableImage(row);
    if (!image || total + image.data.byteLength > MAX_IMAGE_BYTES_TOTAL) continue;
    total += image.data.byteLength;
    for (const url of wanted.get(row.id) ?? []) out.set(url, image);
  }
  return out;
}

/**
 * An image every writer can embed: PNG and JPEG as stored (PDF and Word
 * take nothing else); WebP becomes PNG when it has transparency, JPEG
 * otherwise; at most MAX_EXPORT_DIMENSION a side.
 */
async function exportableImage(row: { contentType: string; width: number; height: number; data: Buffer }): Promise<ExportImage | null> {
  const fits = row.width <= MAX_EXPORT_DIMENSION && row.height <= MAX_EXPORT_DIMENSION;
  if (fits && (row.contentType === "image/png" || row.contentType === "image/jpeg")) {
    return { data: Buffer.from(row.data), contentType: row.contentType, width: row.width, height: row.height };
  }
  try {
    const sharp = await loadSharp();
    const pipeline = sharp(row.data, { failOn: "error", animated: false }).resize({
      width: MAX_EXPORT_DIMENSION,
      height: MAX_EXPORT_DIMENSION,
      fit: "inside",
      withoutEnlargement: true,
    });
    const { hasAlpha } = await sharp(row.data).metadata();
    const encoded = hasAlpha || row.contentType === "image/png" ? pipeline.png({ compressionLevel: 6 }) : pipeline.jpeg({ quality: 85, mozjpeg: true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { data, contentType: info.format === "png" ? "image/png" : "image/jpeg", width: info.width, height: info.height };
  } catch {
    return null;
  }
}
