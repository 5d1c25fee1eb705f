import type { Token } from "marked";
import type { PDFDocument, PDFRef } from "pdf-lib";
import { loadSharp } from "~/utils/sharp.server";
import type { ExportDocument, ExportImage } from "../document";
import { diagramKey, exportReferences } from "../markdown-tokens";
import type { MediaLookup } from "./draw";
import { embedPng } from "./png.server";

/**
 * The pictures a document draws, embedded once each before layout: images
 * the markdown references (doc.images), rendered Mermaid diagrams
 * (doc.diagrams) and the logo. PNG and JPEG go in as they are; WebP, GIF and
 * anything pdf-lib refuses are converted to PNG with sharp first.
 */

export interface EmbeddedImage {
  /** XObject resource name. */
  name: string;
  ref: PDFRef;
  /** Size to draw at, in points (CSS pixels × 0.75). */
  width: number;
  height: number;
}

export class Media implements MediaLookup {
  readonly xobjects: EmbeddedImage[] = [];
  readonly images = new Map<string, EmbeddedImage>();
  readonly diagrams = new Map<string, EmbeddedImage | null>();
  logo: EmbeddedImage | null = null;

  image(href: string) {
    return this.images.get(href);
  }

  diagram(source: string) {
    return this.diagrams.get(diagramKey(source));
  }
}

async function embedBytes(pdf: PDFDocument, data: Uint8Array, contentType: string): Promise<{ ref: PDFRef; width: number; height: number } | null> {
  try {
    if (contentType === "image/png") {
      const fast = embedPng(pdf, data);
      if (fast) return fast;
      const image = await pdf.embedPng(data);
      return { ref: image.ref, width: image.width, height: image.height };
    }
    if (contentType === "image/jpeg") {
      const image = await pdf.embedJpg(data);
      return { ref: image.ref, width: image.width, height: image.height };
    }
  } catch {
    // Unusual encodings pdf-lib cannot read: let sharp re-encode below.
  }
  try {
    const sharp = await loadSharp();
    const { data: png, info } = await sharp(data, { animated: false }).png().toBuffer({ resolveWithObject: true });
    return embedPng(pdf, png) ?? { ref: (await pdf.embedPng(png)).ref, width: info.width, height: info.height };
  } catch {
    return null;
  }
}

export async function prepareMedia(pdf: PDFDocument, doc: ExportDocument, tokens: Token[]): Promise<Media> {
  const media = new Media();
  const add = async (data: Uint8Array, contentType: string, width: number, height: number) => {
    const image = await embedBytes(pdf, data, contentType);
    if (!image) return null;
    const w = width > 0 ? width : image.width;
    const h = height > 0 ? height : image.height;
    const embedded = { name: `Im${media.xobjects.length + 1}`, ref: image.ref, width: w * 0.75, height: h * 0.75 };
    media.xobjects.push(embedded);
    return embedded;
  };
  const refs = exportReferences(tokens);
  const imageHrefs = refs.images.filter((href) => doc.images.has(href));
  const diagramSources = refs.mermaid;
  for (const href of imageHrefs) {
    const img: ExportImage = doc.images.get(href)!;
    const embedded = await add(img.data, img.contentType, img.width, img.height);
    if (embedded) media.images.set(href, embedded);
  }
  for (const source of diagramSources) {
    const diagram = doc.diagrams.get(source);
    media.diagrams.set(source, diagram ? await add(diagram.png, "image/png", diagram.width, diagram.height) : null);
  }
  const logo = doc.branding.logo;
  if (logo) media.logo = await add(logo.data, logo.contentType, logo.width, logo.height);
  return media;
}
