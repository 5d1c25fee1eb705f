import { MAX_EXTRACTED_CHARS, type DocumentKind } from "./uploads.schema";
import { type SniffedDocument, unsupported } from "./sniff.server";

/**
 * Text out of a document: PDF through unpdf (pdf.js), DOCX through mammoth
 * (headings, list items and paragraphs kept as Markdown-like lines), TXT and
 * MD as decoded. A file that claims a type by its magic bytes but does not
 * parse as one is 415, not 500.
 */

export interface Extracted {
  kind: DocumentKind;
  text: string;
  truncated: boolean;
  pages?: number;
}

export async function extractDocumentText(data: Buffer, sniffed: SniffedDocument): Promise<Extracted> {
  let text: string;
  let pages: number | undefined;
  if (sniffed.kind === "pdf") ({ text, pages } = await pdfText(data));
  else if (sniffed.kind === "docx") text = await docxText(data);
  else text = sniffed.text ?? "";
  text = normalize(text);
  const truncated = text.length > MAX_EXTRACTED_CHARS;
  if (truncated) text = text.slice(0, MAX_EXTRACTED_CHARS);
  return { kind: sniffed.kind, text, truncated, ...(pages !== undefined ? { pages } : {}) };
}

async function pdfText(data: Buffer) {
  const { extractText, getDocumentProxy } = await import("unpdf");
  try {
    const doc = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
    try {
      const { text, totalPages } = await extractText(doc, { mergePages: false });
      return { text: text.join("\n\n"), pages: totalPages };
    } finally {
      await doc.destroy().catch(() => {});
    }
  } catch (error) {
    const reason = (error as Error)?.name === "PasswordException" ? "it is password-protected" : "it is damaged or not really a PDF";
    throw unsupported(`The PDF could not be read: ${reason}.`);
  }
}

async function docxText(data: Buffer) {
  const mammoth = (await import("mammoth")).default;
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: data })).value;
  } catch {
    throw unsupported("The Word document could not be read: it is damaged or not really a .docx file.");
  }
  return htmlToText(html);
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
