import type * as Y from "yjs";
import { config } from "~/config.server";
import { AppError } from "../errors";

/**
 * The bounds of live editing (docs/design/live-editing.md, "Limits"): what
 * one update, one document, one stream and the whole process may hold, so
 * no client can take the server's memory. Operators set the stream caps and
 * the memory of the documents held (docs/operations.md, Configuration); the
 * rest are constants measured against the largest PRD a save accepts.
 */

/** The live document may not grow beyond this (snapshot plus stored updates, after compaction; 413 beyond). */
export const MAX_LIVE_DOC_BYTES = 8 * 1024 * 1024;
/**
 * Items (Yjs structs plus delete ranges) one update may carry. A paste of
 * 512 KB of formatted text is about 14,000; a hostile update of tiny items
 * would hold about 350 bytes of heap per item.
 */
export const LIVE_MAX_UPDATE_ITEMS = 20_000;
/** Items one document may hold (LIVE_MAX_DOC_ITEMS, 250,000 by default): the largest PRD a save accepts (2,000,000 characters) is about 190,000. */
export const liveMaxDocItems = () => config().LIVE_MAX_DOC_ITEMS;
/** Heap one item of a loaded document takes (measured 290–360 bytes), for the memory estimate. */
const ITEM_HEAP_BYTES = 360;
/** How long a refused stream (a cap reached) is asked to wait before trying again. */
const STREAM_RETRY_SECONDS = 10;

/** The items (structs) a loaded document holds. Cheap: one array length per Yjs client. */
export function countItems(doc: Y.Doc): number {
  let n = 0;
  for (const structs of doc.store.clients.values()) n += structs.length;
  return n;
}

/** The items one decoded update carries: its structs and the ranges of its delete set. */
export function updateItems(decoded: { structs: unknown[]; ds: { clients: Map<number, unknown[]> } }): number {
  let n = decoded.structs.length;
  for (const ranges of decoded.ds.clients.values()) n += ranges.length;
  return n;
}

/** The memory a loaded document is estimated to take: its items' heap plus its content. */
export const estimatedBytes = (doc: Y.Doc, storedBytes: number) => countItems(doc) * ITEM_HEAP_BYTES + storedBytes;

export const tooLarge = (what: string, limit: number, unit: "bytes" | "items" = "bytes") =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    413,
    unit === "bytes" ? `${what} is larger than ${Math.round(limit / 1024)} KB` : `${what} has more than ${limit.toLocaleString("en")} items`,
    { extra: { limit } },
  );

/** 429 with Retry-After and the X-RateLimit-* headers of a cap that frees up when something ends (a stream, a document). */
export function capReached(message: string, limit: number, retry = STREAM_RETRY_SECONDS) {
  return new AppError("RATE_LIMITED", 429, message, {
    headers: {
      "Retry-After": String(retry),
      "X-RateLimit-Limit": String(limit),
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + retry),
    },
    extra: { retryAfter: retry },
  });
}

// ---------------------------------------------------------------- streams per user

/** Open live streams per user, over every project. */
const streamsByUser = new Map<string, number>();

/** Throws 429 when the user already holds their live streams' cap. */
export function assertUserStreamRoom(userId: string) {
  const limit = config().LIVE_MAX_STREAMS_PER_USER;
  if ((streamsByUser.get(userId) ?? 0) >= limit) {
    throw capReached(`You already have ${limit} live editors open. Close a tab with the editor and try again.`, limit);
  }
}

/** Throws 429 when the project already has its live streams' cap. */
export function assertProjectStreamRoom(open: number) {
  const limit = config().LIVE_MAX_STREAMS_PER_PROJECT;
  if (open >= limit) throw capReached(`This PRD already has ${limit} live editors open. Try again when someone leaves.`, limit);
}

/** Takes one of the user's stream slots (after assertUserStreamRoom, in the same turn); the returned function gives it back, once. */
export function takeUserStream(userId: string): () => void {
  streamsByUser.set(userId, (streamsByUser.get(userId) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (streamsByUser.get(userId) ?? 1) - 1;
    if (left <= 0) streamsByUser.delete(userId);
    else streamsByUser.set(userId, left);
  };
}

/** The user's open live streams (tests, the operator's view). */
export const userStreams = (userId: string) => streamsByUser.get(userId) ?? 0;

/** The bytes of encoded events a live stream's response buffers for a reader that has not caught up (then it waits in its subscription). */
export const LIVE_STREAM_BUFFER_BYTES = 256 * 1024;
