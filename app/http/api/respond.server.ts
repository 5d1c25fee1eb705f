import { ZodError } from "zod/v4";
import { AppError } from "~/domain/errors";
import { logger } from "~/utils/log.server";

export const API_VERSION = "1";

/**
 * The JSON text of a response made by `jsonResponse`, kept beside its body so
 * the node adapter (app/http/server/node-adapter.server.ts) can write it in one call
 * instead of reading the body stream back.
 */
export const JSON_TEXT = Symbol("json-text");

/**
 * A Response whose body stream is made only when somebody reads it. Undici
 * makes a string body into bytes and a ReadableStream at construction — for a
 * 2,000-word PRD more work than the rest of the read — and the node adapter
 * never reads that stream: it writes `[JSON_TEXT]`. Everything a Response
 * offers (body, bodyUsed, text(), json(), clone()...) still works, on a real
 * Response made from the same text the first time it is needed.
 */
class JsonResponse extends Response {
  readonly #text: string;
  readonly #headers: Headers;
  #real: Response | null = null;

  /** `headers` becomes the response's own (undici would copy them into another Headers). */
  constructor(text: string, init: { status: number; statusText?: string; headers: Headers }) {
    super(null, { status: init.status, statusText: init.statusText });
    this.#text = text;
    this.#headers = init.headers;
  }

  override get headers() {
    return this.#headers;
  }

  get [JSON_TEXT]() {
    return this.#real ? undefined : this.#text;
  }

  #materialize() {
    return (this.#real ??= new Response(this.#text, { headers: this.#headers }));
  }

  override get body() {
    return this.#materialize().body;
  }
  override get bodyUsed() {
    return this.#real?.bodyUsed ?? false;
  }
  override text() {
    return this.#materialize().text();
  }
  override json() {
    return this.#materialize().json();
  }
  override arrayBuffer() {
    return this.#materialize().arrayBuffer();
  }
  override blob() {
    return this.#materialize().blob();
  }
  override formData() {
    return this.#materialize().formData();
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new JsonResponse(this.#text, { status: this.status, statusText: this.statusText, headers: new Headers(this.#headers) });
  }
}

/** A JSON response in the contract's shape. A `Headers` passed in becomes the response's own (not copied). */
export function jsonResponse(data: unknown, status = 200, headers?: HeadersInit) {
  const h = headers instanceof Headers ? headers : new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("API-Version", API_VERSION);
  if (!h.has("Cache-Control")) h.set("Cache-Control", "no-store");
  const text = status === 204 ? undefined : JSON.stringify(data);
  return text === undefined ? new Response(null, { status, headers: h }) : new JsonResponse(text, { status, headers: h });
}

export function zodDetails(error: ZodError) {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}

/** Turns anything thrown into the contract's `{error, code, details?}` envelope; the unexpected is logged with the request's id. */
export function errorResponse(error: unknown, headers?: HeadersInit, requestId?: string) {
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
  logger.error("[api] unhandled error", { requestId, error });
  return jsonResponse({ error: "Something went wrong on our side", code: "INTERNAL_ERROR" }, 500, h);
}
