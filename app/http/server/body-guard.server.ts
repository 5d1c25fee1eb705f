import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { config } from "~/config.server";
import { isRoutedPath } from "../api/api-router.server";
import { LARGEST_UPLOAD_BODY_BYTES, pageUploadBodyLimit } from "../api/multipart.server";
import { type Refusal, bodyTooLarge, unsupportedBody } from "./refusals.server";

/**
 * One bound on every request body, kept where node hands the body over
 * (IncomingMessage#push, which node's HTTP parser calls for each chunk), so
 * no route, adapter or parser can take more than it:
 *
 * - a page's form (urlencoded, or multipart to a page that takes no file) may
 *   be MAX_FORM_BODY_BYTES (1 MB); it is read whole before Remix runs
 *   ("hold"), so a route's formData() only ever sees a complete, bounded body
 *   and an oversized one never reaches it;
 * - a multipart body to a page that takes a file streams to the route as it
 *   reads it, bounded by that page's file limit (pageUploadBodyLimit); any
 *   /api body streams too, bounded by the largest upload (25 MB + 64 KB), and
 *   the route's own, smaller limit (parseMultipart, readBodyText) applies first;
 * - any other body to a page (application/json, text/plain, none...) is refused (415);
 * - a declared Content-Length over the bound is refused before a byte is read.
 *
 * A body left unread — refused, or answered early by a route (a 403 before an
 * upload is read, a 413 at a route's own limit) — no longer wedges the
 * connection: the answer carries `Connection: close`, the rest of the body
 * is read and dropped while the answer goes out (at most DRAIN_BYTES, and
 * for LINGER_MS after it), then the socket closes. A body reader giving up
 * (a web stream's cancel() destroys the IncomingMessage, which used to reset
 * the connection before the answer was written) only stops the reading.
 */

/** How long a connection whose request body was left unread stays open after the answer, dropping what still arrives. */
export const LINGER_MS = 2_000;
/** Bytes of a left-over body read and dropped; past this the server stops reading and closes once the answer is out. */
export const DRAIN_BYTES = 64 * 1024 * 1024;

export interface BodyPolicy {
  /** An /api (or /mcp) request: refusals are the JSON envelope. */
  api: boolean;
  /** "hold": read the whole body before the route runs; "stream": hand it over as it comes. */
  mode: "hold" | "stream";
  limit: number;
  /** Refused from its headers alone: declared too large, or a type a page does not take. */
  refusal: Refusal | null;
}

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const mediaType = (headers: IncomingHttpHeaders) => (one(headers["content-type"]) ?? "").split(";")[0]!.trim().toLowerCase();

/** What a request's body may be; null when it has none (GET and HEAD bodies are left to node, which drops them). */
export function bodyPolicy(method: string, pathname: string, headers: IncomingHttpHeaders): BodyPolicy | null {
  if (method === "GET" || method === "HEAD") return null;
  const chunked = headers["transfer-encoding"] !== undefined;
  const declared = chunked ? null : Number(headers["content-length"] ?? 0);
  if (!chunked && !(declared! > 0)) return null;
  const api = isRoutedPath(pathname) || pathname.startsWith("/api/");
  const type = mediaType(headers);
  const { MAX_FORM_BODY_BYTES, MAX_JSON_BODY_BYTES } = config();
  let policy: BodyPolicy;
  const upload = !api && type === MULTIPART ? pageUploadBodyLimit(pathname) : null;
  if (api) {
    const limit = Math.max(LARGEST_UPLOAD_BODY_BYTES, MAX_JSON_BODY_BYTES, MAX_FORM_BODY_BYTES);
    policy = { api, mode: "stream", limit, refusal: null };
  } else if (upload !== null) {
    policy = { api, mode: "stream", limit: upload, refusal: null };
  } else if (type === FORM || type === MULTIPART) {
    policy = { api, mode: "hold", limit: MAX_FORM_BODY_BYTES, refusal: null };
  } else {
    return { api, mode: "hold", limit: 0, refusal: unsupportedBody(type) };
  }
  if (declared !== null && declared > policy.limit) policy.refusal = bodyTooLarge(policy.limit, upload !== null);
  return policy;
}

type Push = (chunk: unknown, encoding?: BufferEncoding) => boolean;

export class BodyGuard {
  /** The body went past the limit (the rest is dropped). */
  overflowed = false;
  /** The status of an answer written straight to the socket (app/http/server/serve.server.ts), for the access log. */
  rawStatus: number | null = null;
  /** "hold": settles true once the whole body is in within the limit; false when it passed it or the client left. */
  readonly complete: Promise<boolean>;
  /** "stream": called once when the body passes the limit (a route is reading it: the server answers). */
  onOverflow: (() => void) | null = null;

  readonly #req: IncomingMessage;
  readonly #socket: Socket;
  #size = 0;
  #dropping = false;
  #dropped = 0;
  #closing = false;
  #settle: (whole: boolean) => void = () => {};
  /** Closes the connection once the body has ended (set while lingering). */
  #afterBody: (() => void) | null = null;

  constructor(
    req: IncomingMessage,
    res: ServerResponse,
    readonly policy: BodyPolicy,
  ) {
    this.#req = req;
    this.#socket = req.socket;
    this.complete = policy.mode === "hold" && !policy.refusal ? new Promise((resolve) => (this.#settle = resolve)) : Promise.resolve(false);
    if (policy.refusal) this.#dropping = true;

    const push = req.push as Push;
    req.push = ((chunk: unknown, encoding?: BufferEncoding) => this.#push(push, chunk, encoding)) as typeof req.push;
    // A reader that gives up destroys the request, and with it the socket, before the answer is written.
    const destroy = req.destroy;
    req.destroy = ((error?: Error) => {
      if (this.#socket.destroyed) return destroy.call(req, error);
      this.#drop();
      return req;
    }) as typeof req.destroy;
    req.once("close", () => this.#settle(false));
    // Installed after node handed over some of the body (development: the handler waits for Vite's build)?
    // What is buffered counts. Taking it out and putting it back restarts node's reading, which a full
    // buffer with nobody reading had stopped; a body already complete settles at once.
    if (req.readableLength > 0 && !req.complete) {
      const early = req.read() as Buffer | null;
      if (early) req.unshift(early);
    }
    this.#size = req.readableLength;
    if (this.#size > policy.limit) {
      this.overflowed = true;
      this.#drop();
      this.#settle(false);
    } else if (req.complete) this.#settle(true);

    // An answer written while the body is still coming ends the connection (see #linger).
    const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
    const guard = this;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (!req.complete) guard.#closeAfterAnswer(this);
      return writeHead.apply(this, args);
    } as ServerResponse["writeHead"];
  }

  get limit() {
    return this.policy.limit;
  }

  #push(push: Push, chunk: unknown, encoding?: BufferEncoding): boolean {
    const req = this.#req;
    if (chunk === null) {
      const done = push.call(req, null);
      this.#settle(!this.overflowed && !this.#dropping);
      this.#afterBody?.();
      return done;
    }
    const size = (chunk as Buffer).length;
    if (this.#dropping) {
      this.#dropped += size;
      // false stops node reading the socket: the client waits, and the connection closes after the answer.
      return this.#dropped <= DRAIN_BYTES;
    }
    this.#size += size;
    if (this.#size > this.policy.limit) {
      this.overflowed = true;
      this.#drop();
      this.#settle(false);
      this.onOverflow?.();
      return true;
    }
    const more = push.call(req, chunk, encoding);
    // Held bodies are read ahead (bounded by the limit) with nobody consuming them yet.
    return this.policy.mode === "hold" || more;
  }

  /** From now on what arrives is dropped, and read so the client can finish sending and read the answer. */
  #drop() {
    this.#dropping = true;
    // Nothing reaches the stream any more; resuming it restarts node's reading if a paused reader had stopped it.
    this.#req.resume();
  }

  #closeAfterAnswer(res: ServerResponse) {
    if (this.#closing) return;
    this.#closing = true;
    if (!res.headersSent) res.setHeader("Connection", "close");
    // Node ends a `Connection: close` response's socket with destroySoon() once it is written.
    this.#socket.destroySoon = () => this.linger();
  }

  /**
   * Ends the connection without resetting it: FIN after the answer, the rest
   * of the body read and dropped until it ends (or LINGER_MS, or DRAIN_BYTES),
   * then the socket is closed. Closing with bytes unread would make the
   * kernel send a reset, which can destroy the answer before the client reads it.
   */
  linger() {
    const socket = this.#socket;
    this.#closing = true;
    this.#drop();
    if (!socket.writableEnded) socket.end();
    let timer: NodeJS.Timeout | undefined;
    const close = () => {
      clearTimeout(timer);
      this.#afterBody = null;
      if (socket.writableFinished) socket.destroy();
      else socket.once("finish", () => socket.destroy());
    };
    if (this.#req.complete || this.#dropped > DRAIN_BYTES) return close();
    this.#afterBody = close;
    timer = setTimeout(close, LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  }
}

/** Installs the guard on a request with a body (at arrival, before node hands over its first chunk). */
export function guardBody(req: IncomingMessage, res: ServerResponse, pathname: string): BodyGuard | null {
  const policy = bodyPolicy(req.method ?? "GET", pathname, req.headers);
  return policy ? new BodyGuard(req, res, policy) : null;
}

/**
 * Makes a response ignore whatever its route still writes: the server has
 * answered on the socket itself (a body cut off at the bound while a page
 * route was reading it).
 */
export function sealResponse(res: ServerResponse) {
  const self = function (this: ServerResponse) {
    return this;
  };
  const done = (...args: unknown[]) => {
    const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
  };
  Object.assign(res, {
    setHeader: self,
    appendHeader: self,
    removeHeader: () => undefined,
    writeHead: self,
    flushHeaders: () => undefined,
    write: (...args: unknown[]) => (done(...args), true),
    end: function (this: ServerResponse, ...args: unknown[]) {
      done(...args);
      return this;
    },
  });
}
