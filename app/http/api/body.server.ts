import { config } from "~/config.server";
import { AppError } from "~/domain/errors";
import { formatBytes } from "~/utils/format";

export const tooLarge = (limit: number) =>
  new AppError("PAYLOAD_TOO_LARGE", 413, `Request body is larger than ${formatBytes(limit)}`, {
    extra: { limit },
  });

export { formatBytes };

/** Refuses early on Content-Length, then counts bytes while reading. */
export async function readBodyText(request: Request, maxBytes = config().MAX_JSON_BODY_BYTES) {
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function formToObject(params: URLSearchParams) {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 || key.endsWith("[]") ? all : all[0]!;
  }
  return out;
}

export function queryToObject(url: string) {
  return formToObject(new URL(url).searchParams);
}

/**
 * Reads a JSON or form-urlencoded body into a plain object. A JSON text sent
 * with the form content type (curl -d) is read as JSON. Empty bodies give {}.
 */
export async function readBody(request: Request): Promise<unknown> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "multipart/form-data") {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", 415, "This endpoint takes JSON, not multipart/form-data");
  }
  const text = await readBodyText(request);
  if (text.trim() === "") return {};
  const looksJson = /^\s*[[{]/.test(text);
  if (type === "application/json" || type.endsWith("+json") || (looksJson && type !== "text/plain")) {
    try {
      return JSON.parse(text);
    } catch {
      throw new AppError("INVALID_JSON", 400, "The request body is not valid JSON");
    }
  }
  if (type === "application/x-www-form-urlencoded" || type === "") return formToObject(new URLSearchParams(text));
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", 415, `Content-Type ${type} is not supported; send application/json`);
}
