import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { MAX_LOGO_BYTES } from "~/domain/branding/branding.schema";
import { AppError } from "~/domain/errors";
import { MAX_FILE_BYTES } from "~/domain/files/files.schema";
import { MAX_AUDIO_BYTES, MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES } from "~/domain/uploads/uploads.schema";
import { formatBytes, tooLarge } from "./body.server";

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  data: Buffer;
}

const FIELD_LIMIT = 64 * 1024;
/** What a multipart body may carry besides its file: boundaries, part headers, a few small fields. */
export const MULTIPART_OVERHEAD = 64 * 1024;
/**
 * The largest multipart body any route takes: the largest file limit (audio,
 * 25 MB) plus the overhead. The node server refuses larger ones before a route
 * runs (app/http/server/body-guard.server.ts); each route's own limit, checked
 * here while the body streams, is the one that usually applies.
 */
export const LARGEST_UPLOAD_BODY_BYTES = Math.max(MAX_AUDIO_BYTES, MAX_DOCUMENT_BYTES, MAX_FILE_BYTES, MAX_IMAGE_BYTES, MAX_LOGO_BYTES) + MULTIPART_OVERHEAD;
/**
 * The pages that take a file (their forms are multipart), by path (`*`: any
 * one segment), with the file each takes: a multipart body to one of them
 * streams to the route under that file's limit; one to any other page is a
 * form like the others, held whole under MAX_FORM_BODY_BYTES (1 MB).
 */
const PAGE_UPLOADS: readonly (readonly [readonly string[], number])[] = [
  [["admin", "branding"], MAX_LOGO_BYTES],
  [["projects", "new"], MAX_DOCUMENT_BYTES],
  [["projects", "*", "files"], MAX_FILE_BYTES],
  [["projects", "*", "builder"], MAX_AUDIO_BYTES],
];

/**
 * How far past its file limit a page's upload may stream before the server
 * cuts it: the route's own parser answers at the file limit with its own page
 * ("The file is larger than 10 MB"), but it reads behind the socket, and on a
 * busy machine a few megabytes arrive before it has counted them.
 */
const PAGE_UPLOAD_SLACK = 4 * 1024 * 1024;

/** The largest multipart body the page at `pathname` takes (its file plus the slack), or null when it takes no file. */
export function pageUploadBodyLimit(pathname: string): number | null {
  // A single-fetch submission posts to the page's path with ".data" appended.
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  const segments = path.split("/").filter(Boolean);
  for (const [pattern, fileBytes] of PAGE_UPLOADS) {
    if (pattern.length === segments.length && pattern.every((part, i) => part === "*" || part === segments[i])) return fileBytes + PAGE_UPLOAD_SLACK;
  }
  return null;
}

/** Parts (fields and files) one body may have: every upload form has a handful. */
export const MAX_PARTS = 50;

/**
 * Streams a multipart/form-data body (Remix's streaming parser), counting
 * bytes as they arrive: a file over `maxFileBytes` is refused with 413 while
 * it is still being read, and so is a declared Content-Length that is
 * already too big. Text fields are capped at 64 KB each, the parts at
 * MAX_PARTS, and all parts together at `maxFileBytes` plus 64 KB: a chunked
 * body (no Content-Length) of endless small fields or ignored files is cut
 * off as soon as it passes either bound.
 */
export async function parseMultipart(request: Request, options: { maxFileBytes: number; fileFields?: string[]; requiredFile?: string }) {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", 415, "Send the file as multipart/form-data");
  }
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > options.maxFileBytes + MULTIPART_OVERHEAD) {
    throw fileTooLarge(options.maxFileBytes);
  }
  const allowed = new Set(options.fileFields ?? ["file"]);
  const files: Record<string, UploadedFile> = {};
  const fields: Record<string, string> = {};
  const totalLimit = options.maxFileBytes + MULTIPART_OVERHEAD;
  let parts = 0;
  let total = 0;

  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    const isFile = typeof filename === "string";
    if (++parts > MAX_PARTS) {
      throw new AppError("PAYLOAD_TOO_LARGE", 413, `The form has more than ${MAX_PARTS} fields`, { extra: { limit: MAX_PARTS } });
    }
    const limit = isFile ? options.maxFileBytes : FIELD_LIMIT;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      total += chunk.byteLength;
      if (size > limit) throw isFile ? fileTooLarge(limit) : tooLarge(limit);
      if (total > totalLimit) throw tooLarge(totalLimit);
      chunks.push(chunk);
    }
    if (isFile) {
      if (!allowed.has(name)) return undefined;
      files[name] = {
        field: name,
        filename: filename || "upload",
        contentType: contentType || "application/octet-stream",
        size,
        data: Buffer.concat(chunks),
      };
    } else {
      fields[name] = Buffer.concat(chunks).toString("utf8");
    }
    return undefined;
  };

  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("VALIDATION_ERROR", 400, "The multipart body could not be read", {
      details: [{ path: "body", message: String((error as Error).message ?? error) }],
    });
  }
  if (options.requiredFile && !files[options.requiredFile]) {
    throw new AppError("VALIDATION_ERROR", 400, `Attach a file in the \`${options.requiredFile}\` field`, {
      details: [{ path: options.requiredFile, message: "A file is required" }],
    });
  }
  return { files, fields };
}

function fileTooLarge(limit: number) {
  return new AppError("PAYLOAD_TOO_LARGE", 413, `The file is larger than ${formatBytes(limit)}`, {
    extra: { limit },
  });
}
