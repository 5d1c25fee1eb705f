import { MAX_EXTRACTED_CHARS, type DocumentKind } from "./uploads.schema";
import { type SniffedDocument, unsupported } from "./sniff.server";
import { assertPdfWithinBounds } from "./pdf-bounds.server";
import { assertZipWithinBounds } from "./zip-bounds.server";
import { parseInWorker } from "./parse-worker.server";

/**
 * Text out of a document: PDF through unpdf (pdf.js), DOCX through mammoth
 * (headings, list items and paragraphs kept as Markdown-like lines), TXT and
 * MD as decoded. A file that claims a type by its magic bytes but does not
 * parse as one is 415, not 500. PDF and DOCX are checked for how far they
 * expand before any parser sees them, then parsed in a bounded worker
 * (parse-bounds.server.ts): a decompression bomb is 413.
 */

export interface Extracted {
  kind: DocumentKind;
  text: string;
  truncated: boolean;
  pages?: number;
}

export async function extractDocumentText(data: Buffer, sniffed: SniffedDocument, signal?: AbortSignal): Promise<Extracted> {
  let text: string;
  let pages: number | undefined;
  let cut = false;
  if (sniffed.kind === "pdf") ({ text, pages, cut } = await pdfText(data, signal));
  else if (sniffed.kind === "docx") ({ text, cut } = await docxText(data, signal));
  else text = sniffed.text ?? "";
  text = normalize(text);
  const truncated = cut || text.length > MAX_EXTRACTED_CHARS;
  if (text.length > MAX_EXTRACTED_CHARS) text = text.slice(0, MAX_EXTRACTED_CHARS);
  return { kind: sniffed.kind, text, truncated, ...(pages !== undefined ? { pages } : {}) };
}

async function pdfText(data: Buffer, signal?: AbortSignal) {
  await assertPdfWithinBounds(data);
  const answer = await parseInWorker("pdf", data, signal);
  if ("failed" in answer) {
    const reason = answer.failed === "password" ? "it is password-protected" : "it is damaged or not really a PDF";
    throw unsupported(`The PDF could not be read: ${reason}.`);
  }
  if (!("text" in answer)) throw new Error("The PDF parser answered without text");
  return answer;
}

async function docxText(data: Buffer, signal?: AbortSignal) {
  await assertZipWithinBounds(data);
  const answer = await parseInWorker("docx", data, signal);
  if ("failed" in answer) throw unsupported("The Word document could not be read: it is damaged or not really a .docx file.");
  if (!("html" in answer)) throw new Error("The Word parser answered without HTML");
  return { text: htmlToText(answer.html), cut: answer.cut };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** mammoth's simple HTML as Markdown-ish lines: headings as `#`, list items as `- `, one blank line between blocks. */
export function htmlToText(html: string) {
  return html
    .replace(/<h([1-6])[^>]*>/gi, (_, n: string) => `\n\n${"#".repeat(Number(n))} `)
    .replace(/<li[^>]*>/gi, "\n- ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|h[1-6]|ul|ol|table|tr)>/gi, "\n\n")
    .replace(/<\/t[dh]>/gi, " | ")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? (name.startsWith("#") ? safeChar(name.slice(1)) : m));
}

function safeChar(code: string) {
  const n = code.startsWith("x") ? parseInt(code.slice(1), 16) : parseInt(code, 10);
  return Number.isFinite(n) && n > 31 && n < 0x110000 ? String.fromCodePoint(n) : "";
}

/** Unix newlines, no trailing spaces, at most one blank line in a row. */
function normalize(text: string) {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\u00a0]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
