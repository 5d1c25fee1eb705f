import { z } from "zod/v4";

/** Upload limits (docs/uploads.md): checked while the body streams. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

/** Extracted text kept from one document; longer text is cut and marked `truncated`. */
export const MAX_EXTRACTED_CHARS = 200_000;
/** Images larger than this on either side are scaled down to fit. */
export const MAX_IMAGE_DIMENSION = 4096;

export const DOCUMENT_KINDS = ["pdf", "docx", "txt", "md"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The non-file fields of POST /api/upload/image. */
export const imageFieldsSchema = z.object({
  projectId: z.string({ error: "projectId is required" }).trim().min(1, "projectId is required").max(100),
});

const binary = (description: string) => z.string().meta({ format: "binary", description });

export const documentBodyDoc = z.object({
  file: binary("PDF, DOCX, TXT or Markdown, at most 10 MB; the type is read from the content"),
});
export const imageBodyDoc = z.object({
  file: binary("An image (JPEG, PNG, WebP, GIF, AVIF), at most 5 MB"),
  projectId: z.string().meta({ description: "A project the caller may edit" }),
});
export const audioBodyDoc = z.object({
  file: binary("Audio (MP3, MP4/M4A, WAV, WebM, Ogg, FLAC), at most 25 MB"),
});
