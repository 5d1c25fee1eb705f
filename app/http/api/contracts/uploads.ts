import { z } from "zod/v4";
import { audioBodyDoc, DOCUMENT_KINDS, documentBodyDoc, imageBodyDoc } from "~/domain/uploads/uploads.schema";
import { contract } from "../contract";

// Contracts of this area. Each exported contract is picked up by ./index.ts.
// The integrations status moved to ./integrations.ts.

const tag = "Uploads";
const typeNote = " The type is decided from the bytes, never from the filename or the part's declared type.";

export const analysisShape = z.object({
  title: z.string(),
  summary: z.string(),
  sections: z.array(z.object({ title: z.string(), summary: z.string() })),
  requirements: z.array(z.string()),
  questions: z.array(z.string()),
  wordCount: z.number(),
  model: z.string(),
  provider: z.string(),
});

export const uploadDocument = contract({
  method: "POST",
  path: "/api/upload/document",
  tag,
  summary: "Extract and analyse a document (multipart, field `file`; PDF, DOCX, TXT, MD; max 10 MB)",
  description:
    "A PDF (`%PDF-` and parseable), a Word document (a .docx zip with `word/document.xml`) or UTF-8 text without binary bytes (Markdown when the name ends .md/.markdown or the text has Markdown structure, else plain text); anything else is 415 UNSUPPORTED_MEDIA_TYPE." +
    typeNote +
    ' Over 10 MB is 413 PAYLOAD_TOO_LARGE while the body is read. `text` is the extracted text, at most 200,000 characters (`truncated: true` when cut); `type` is pdf, docx, txt or md. `analysis` comes from the caller\'s AI provider, or the built-in offline drafter (`model: "builtin"`) without a key. Each processed document counts once in the monthly `document_uploads` quota (403 LIMIT_REACHED with `metric` when used up, checked before the body is read).',
  auth: "user",
  requestType: "multipart",
  body: documentBodyDoc,
  response: z.object({
    text: z.string(),
    analysis: analysisShape,
    filename: z.string(),
    type: z.enum(DOCUMENT_KINDS),
    truncated: z.boolean(),
    pages: z.number().optional(),
  }),
  errors: ["VALIDATION_ERROR", "LIMIT_REACHED", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "PROVIDER_ERROR"],
});

export const uploadImage = contract({
  method: "POST",
  path: "/api/upload/image",
  tag,
  summary: "Upload an image into a project (multipart, fields `file` and `projectId`; max 5 MB)",
  description:
    "JPEG, PNG, WebP, GIF (first frame) or AVIF; anything else, or an image that does not decode, is 415." +
    typeNote +
    " The image is re-encoded: turned upright by its EXIF orientation, all metadata (EXIF, GPS, ICC comments) removed, scaled down to at most 4096 px a side; PNG stays PNG, everything else becomes WebP. Needs edit access to the project (403 FORBIDDEN for readers, 404 for projects the caller cannot see). `url` serves the stored image to anyone who can read the project.",
  auth: "user",
  requestType: "multipart",
  body: imageBodyDoc,
  successStatus: 201,
  response: z.object({
    url: z.string(),
    id: z.string(),
    contentType: z.enum(["image/webp", "image/png"]),
    width: z.number(),
    height: z.number(),
    size: z.number(),
  }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
});

export const getImage = contract({
  method: "GET",
  path: "/api/uploads/images/{imageId}",
  tag,
  summary: "An uploaded image's bytes",
  description:
    "An addition to the published interface (the `url` of an image upload). The stored bytes with `Content-Type` image/webp or image/png, `Cache-Control: private, max-age=31536000, immutable` (an image never changes under its id), an `ETag` (`If-None-Match` gets 304) and `X-Content-Type-Options: nosniff`. 404 for anyone who cannot read the image's project.",
  auth: "user",
  params: z.object({ imageId: z.string() }),
  responseType: ["image/webp", "image/png"],
  etag: { ifNoneMatch: true },
  errors: ["NOT_FOUND"],
});

export const transcribe = contract({
  method: "POST",
  path: "/api/upload/transcribe",
  tag,
  summary: "Transcribe audio (multipart, field `file`; max 25 MB; feature-flagged)",
  description:
    "MP3, MP4/M4A, WAV, WebM, Ogg/Opus or FLAC, else 415." +
    typeNote +
    " Transcribed by OpenAI's audio API (`whisper-1`) with the caller's provider_a key: personal, then organization, then platform (`OPENAI_BASE_URL` applies). Without any OpenAI key: 409 CONFLICT (the offline drafter cannot transcribe). Provider failures: 502 PROVIDER_ERROR. `duration` is in seconds; `ceil(duration / 60)` minutes count against the monthly `transcription_minutes` quota (403 LIMIT_REACHED when no minute is left, checked before the body is read; the Free plan has none). Behind the `transcription` feature flag (403 FEATURE_DISABLED).",
  auth: "user",
  flag: "transcription",
  requestType: "multipart",
  body: audioBodyDoc,
  response: z.object({ text: z.string(), duration: z.number(), minutes: z.number(), language: z.string().nullable() }),
  errors: ["VALIDATION_ERROR", "FEATURE_DISABLED", "LIMIT_REACHED", "CONFLICT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "PROVIDER_ERROR"],
});
