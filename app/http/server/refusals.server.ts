import { STATUS_CODES } from "node:http";
import { formatBytes } from "~/utils/format";
import { API_VERSION } from "../api/respond.server";

/**
 * The answers the node server gives itself, before (or instead of) a route:
 * a body over its bound (413), a body a page cannot take (415), and node's
 * own refusals of malformed requests (400, 408, 431; client-errors.server.ts).
 * Each is written for who asked:
 *
 * - `/api` (and a client that asks for JSON, as the exports page's script
 *   does) gets the contract's `{error, code}` envelope, `limit` added on a 413;
 * - Remix's single-fetch requests (`*.data`, a form sent with JavaScript on)
 *   get the error in Remix's own encoding, so the page shows its error
 *   boundary with the message rather than "Unable to decode turbo-stream";
 * - a browser (a form sent with JavaScript off) gets a small HTML page that
 *   says what happened and what to do, like the cross-site refusal.
 */

export type RefusalCode = "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "BAD_REQUEST" | "REQUEST_TIMEOUT" | "HEADERS_TOO_LARGE";

export interface Refusal {
  status: number;
  code: RefusalCode;
  /** The envelope's `error`; the pages say it too, then `hint`. */
  message: string;
  /** What a person can do about it (pages only). */
  hint: string;
  /** The HTML page's heading. */
  title: string;
  /** A 413's bound in bytes (the envelope's `limit`). */
  limit?: number;
}

export type Audience = "json" | "single-fetch" | "html";

const HTML_MEDIA = "text/html";

/** JSON for /api and for a client whose Accept names JSON but not HTML; Remix's encoding for `*.data`; HTML otherwise. */
export function audienceOf(pathname: string, accept: string | undefined, api: boolean): Audience {
  if (api) return "json";
  if (pathname.endsWith(".data")) return "single-fetch";
  const wanted = (accept ?? "").toLowerCase();
  return wanted.includes("json") && !wanted.includes(HTML_MEDIA) ? "json" : "html";
}

export function bodyTooLarge(limit: number, upload: boolean): Refusal {
  const bound = formatBytes(limit);
  return {
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
    limit,
    title: upload ? "File too large" : "Too much to send",
    message: `Request body is larger than ${bound}`,
    hint: upload ? "It was not processed. Choose a smaller file and try again." : "It was not processed. Shorten what you entered and try again.",
  };
}

/** A media type worth repeating back: `type/subtype` in token characters, nothing else. */
const plainType = (type: string) => (type.length <= 100 && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : null);

export function unsupportedBody(type: string): Refusal {
  const named = plainType(type);
  return {
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
    title: "Request refused",
    message: `${named ? `Content-Type ${named}` : "This body"} is not a form; pages take application/x-www-form-urlencoded or multipart/form-data`,
    hint: "It was not processed. Send the form from its page in PRD Studio; programs use the API under /api.",
  };
}

const pageText = (refusal: Refusal) => `${refusal.message}. ${refusal.hint}`;

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function htmlPage(refusal: Refusal) {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(refusal.title)} · PRD Studio</title></head>` +
    `<body><h1>${escapeHtml(refusal.title)}</h1><p>${escapeHtml(pageText(refusal))}</p><p>Go back to PRD Studio and try again from there.</p></body></html>`
  );
}

/** The contract's envelope: `{error, code}`, and `limit` on a 413 (as app/http/api/body.server.ts's tooLarge). */
export function envelope(refusal: Refusal) {
  return JSON.stringify({ error: refusal.message, code: refusal.code, ...(refusal.limit !== undefined ? { limit: refusal.limit } : {}) });
}

/**
 * `{ error: ErrorResponse(status, statusText, message) }` as Remix 2's server
 * encodes a thrown Response for single fetch (turbo-stream: a flat array of
 * values that refer to each other by index).
 */
function singleFetchError(refusal: Refusal) {
  return `${JSON.stringify([{ _1: 2 }, "error", ["ErrorResponse", 3, 4, 5], pageText(refusal), refusal.status, STATUS_CODES[refusal.status] ?? ""])}\n`;
}

/** The body and headers (Content-Length and Connection aside) of `refusal` for `audience`. */
export function refusalContent(refusal: Refusal, audience: Audience): { headers: [string, string][]; body: string } {
  const noStore: [string, string] = ["Cache-Control", "no-store"];
  if (audience === "json") {
    return { headers: [["Content-Type", "application/json; charset=utf-8"], ["API-Version", API_VERSION], noStore], body: envelope(refusal) };
  }
  if (audience === "single-fetch") {
    return { headers: [["Content-Type", "text/x-script"], ["X-Remix-Response", "yes"], noStore], body: singleFetchError(refusal) };
  }
  return { headers: [["Content-Type", "text/html; charset=utf-8"], noStore], body: htmlPage(refusal) };
}

/**
 * A whole HTTP/1.1 response as bytes, for a socket whose ServerResponse
 * cannot be used (node's own parse errors, a body cut off while a route
 * reads it). It always closes the connection.
 */
export function rawResponse(status: number, headers: readonly (readonly [string, string])[], body: string) {
  const bytes = Buffer.from(body, "utf8");
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  head += `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), bytes]);
}
