import { AppError } from "../errors";
import type { DocumentKind } from "./uploads.schema";

/** file-type (~12 MB with its tokenizers) loads on the first upload, not at start-up. */
const fileTypeFromBuffer = async (data: Uint8Array) => (await import("file-type")).fileTypeFromBuffer(data);

export function unsupported(message: string) {
  return new AppError("UNSUPPORTED_MEDIA_TYPE", 415, message);
}

const DOCUMENT_HELP = "Upload a PDF, Word (.docx), plain-text or Markdown document.";

/** Valid UTF-8 (a BOM is allowed) with no NUL or other binary control bytes. */
export function decodeText(data: Buffer): string | null {
  if (data.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return null;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Control characters other than tab, newline, carriage return and form feed mean binary.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: counting control characters is the point.
  const controls = text.match(/[\u0001-\u0008\u000b\u000e-\u001f\u007f]/g)?.length ?? 0;
  if (controls > Math.max(2, text.length / 1000)) return null;
  return text;
}

const MARKDOWN_NAME = /\.(md|markdown|mdown|mkd)$/i;
const MARKDOWN_SYNTAX = [/^#{1,6}\s+\S/m, /^\s*[-*+]\s+\S/m, /^\s*\d+\.\s+\S/m, /\[[^\]]+\]\([^)]+\)/, /^```/m, /^\|.+\|\s*$/m, /\*\*[^*]+\*\*/];

/** Markdown when the name says so or the text uses at least two kinds of Markdown structure (one heading counts). */
export function looksLikeMarkdown(filename: string, text: string) {
  if (MARKDOWN_NAME.test(filename)) return true;
  const hits = MARKDOWN_SYNTAX.filter((re) => re.test(text)).length;
  return /^#{1,6}\s+\S/m.test(text) || hits >= 2;
}

export interface SniffedDocument {
  kind: DocumentKind;
  /** The decoded text for TXT and MD. */
  text?: string;
}

/**
 * Decides what an upload is from its bytes, never from its name or declared
 * type: a PDF named .txt is a PDF, an executable named .png is refused.
 */
export async function sniffDocument(data: Buffer, filename: string): Promise<SniffedDocument> {
  if (data.byteLength === 0) throw unsupported(`The file is empty. ${DOCUMENT_HELP}`);
  const detected = await fileTypeFromBuffer(data);
  if (data.subarray(0, 5).toString("latin1") === "%PDF-" || detected?.ext === "pdf") return { kind: "pdf" };
  if (detected?.ext === "docx") return { kind: "docx" };
  if (detected) {
    throw unsupported(`This file is ${describe(detected.ext)} (${detected.mime}), not a document this service reads. ${DOCUMENT_HELP}`);
  }
  const text = decodeText(data);
  if (text === null) throw unsupported(`The file is neither a PDF, a Word document nor UTF-8 text. ${DOCUMENT_HELP}`);
  return { kind: looksLikeMarkdown(filename, text) ? "md" : "txt", text };
}

function describe(ext: string) {
  if (ext === "elf" || ext === "exe" || ext === "macho") return "an executable";
  return /^[aeiou]/i.test(ext) ? `an ${ext.toUpperCase()} file` : `a ${ext.toUpperCase()} file`;
}

/** Audio formats the transcription API takes, keyed by file-type's `ext`, with the extension to send. */
const AUDIO: Record<string, string> = {
  mp3: "mp3",
  mp4: "mp4",
  m4a: "m4a",
  m4b: "m4a",
  wav: "wav",
  webm: "webm",
  ogg: "ogg",
  oga: "ogg",
  opus: "ogg",
  flac: "flac",
};

export async function sniffAudio(data: Buffer): Promise<{ ext: string; mime: string }> {
  const detected = await fileTypeFromBuffer(data);
  const ext = detected ? AUDIO[detected.ext] : undefined;
  if (!detected || !ext) {
    throw unsupported(
      `${detected ? `This file is ${describe(detected.ext)} (${detected.mime}).` : "The file is not a recognised audio format."} Upload MP3, MP4/M4A, WAV, WebM, Ogg or FLAC audio.`,
    );
  }
  // Containers that also hold video (WebM, MP4, Ogg) are sniffed as video/*; what is sent is their audio.
  return { ext, mime: detected.mime.replace(/^video\//, "audio/") };
}

/** Image formats sharp may decode here (never SVG: it can reference other files). */
const IMAGE_EXTS = new Set(["jpg", "png", "webp", "gif", "avif"]);

export async function sniffImage(data: Buffer): Promise<{ ext: string; mime: string }> {
  const detected = await fileTypeFromBuffer(data);
  if (!detected || !IMAGE_EXTS.has(detected.ext)) {
    throw unsupported(
      `${detected ? `This file is ${describe(detected.ext)} (${detected.mime}).` : "The file is not a recognised image."} Upload a JPEG, PNG, WebP, GIF or AVIF image.`,
    );
  }
  return detected;
}
