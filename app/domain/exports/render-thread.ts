import { parentPort } from "node:worker_threads";
import type { ExportDocument, ExportImage } from "./document";
import { exportReferences, lexMarkdown } from "./markdown-tokens";
import { renderDocx } from "./render/docx.server";
import { renderHtml } from "./render/html.server";
import { renderPdf } from "./render/pdf.server";

/**
 * The export renderers' own thread (render-pool.server.ts starts it): one
 * message in, one answer out. `{ op: "render", format, doc }` answers
 * `{ value: bytes }`; `{ op: "references", markdown }` answers the Mermaid
 * sources and image URLs the markdown uses (lexing 30,000 words is tens of
 * milliseconds too); a failure answers `{ error }`. The production build bundles this file as
 * build/render-worker.js; from source it runs through tsx.
 */

export type RenderFormat = "pdf" | "docx" | "html";
export type References = { mermaid: string[]; images: string[] };
export type ThreadRequest = { op: "render"; format: RenderFormat; doc: ExportDocument } | { op: "references"; markdown: string };
export type ThreadAnswer = { value: Uint8Array | References } | { error: string };

/** Structured clone turns Buffers into Uint8Arrays; the renderers use Buffer's methods (base64). */
const asBuffer = (u8: Uint8Array) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
const revive = (image: ExportImage): ExportImage => ({ ...image, data: asBuffer(image.data) });

function revived(doc: ExportDocument): ExportDocument {
  return {
    ...doc,
    branding: { ...doc.branding, logo: doc.branding.logo ? revive(doc.branding.logo) : null },
    images: new Map([...doc.images].map(([url, image]) => [url, revive(image)])),
    diagrams: new Map([...doc.diagrams].map(([source, d]) => [source, d ? { ...d, png: asBuffer(d.png) } : null])),
  };
}

async function render(format: RenderFormat, doc: ExportDocument): Promise<Uint8Array> {
  if (format === "pdf") return renderPdf(doc);
  if (format === "docx") return renderDocx(doc);
  return Buffer.from(renderHtml(doc), "utf8");
}

parentPort?.on("message", async (request: ThreadRequest) => {
  try {
    if (request.op === "references") {
      parentPort!.postMessage({ value: exportReferences(lexMarkdown(request.markdown)) } satisfies ThreadAnswer);
      return;
    }
    const out = await render(request.format, revived(request.doc));
    // Hand the bytes over without a copy when they own their memory (small Buffers share a pool).
    const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : new Uint8Array(out);
    parentPort!.postMessage({ value: own } satisfies ThreadAnswer, [own.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ThreadAnswer);
  }
});
