import { ZodError } from "zod/v4";
import { AppError } from "~/domain/errors";

export const API_VERSION = "1";

/**
 * The JSON text of a response made by `jsonResponse`, kept beside its body so
 * the node adapter (app/http/node-adapter.server.ts) can write it in one call
 * instead of reading the body stream back. A registry symbol: server.ts and
 * the app build are separate bundles.
 */
export const JSON_TEXT = Symbol.for("prd-studio.json-text");

export function jsonResponse(data: unknown, status = 200, headers?: HeadersInit) {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("API-Version", API_VERSION);
  if (!h.has("Cache-Control")) h.set("Cache-Control", "no-store");
  const text = status === 204 ? null : JSON.stringify(data);
  const response = new Response(text, { status, headers: h });
  if (text !== null) Object.defineProperty(response, JSON_TEXT, { value: text });
  return response;
}

export function zodDetails(error: ZodError) {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}

/** Turns anything thrown into the contract's `{error, code, details?}` envelope. */
export function errorResponse(error: unknown, headers?: HeadersInit) {
  const h = new Headers(headers);
  if (error instanceof AppError) {
    for (const [k, v] of Object.entries(error.headers ?? {})) h.set(k, v);
    return jsonResponse(
      {
        error: error.message,
        code: error.code,
        ...(error.details ? { details: error.details } : {}),
        ...error.extra,
      },
      error.status,
      h,
    );
  }
  if (error instanceof ZodError) {
    const details = zodDetails(error);
    const first = details[0];
    const message = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "Invalid input";
    return jsonResponse({ error: message, code: "VALIDATION_ERROR", details }, 400, h);
  }
  if (error instanceof Response) return error;
  console.error("[api] unhandled error", error);
  return jsonResponse({ error: "Something went wrong on our side", code: "INTERNAL_ERROR" }, 500, h);
}
