import crypto from "node:crypto";
import { offlineDrafter } from "~/ai/builtin/offline.server";
import { type CheckOptions, checkPrd, type PrdCheck } from "~/prd-rules/check";

/**
 * PRD check results by content (issue 33): the project page, the API and
 * MCP check the same saved PRD again and again, and the answer depends only
 * on the text and the template's sections. The key is the SHA-256 of both,
 * so a new version (or another template) is a new key and nothing is ever
 * stale; two projects with the same text share an entry, which tells
 * neither anything it did not send. Least recently used entries go first,
 * past MAX_ENTRIES or MAX_BYTES (the results' estimated size). A result cut
 * short by the time budget (`partial`) is kept for PARTIAL_MS only, so a
 * busy moment does not leave a PRD half-checked, while the same hostile
 * text sent again and again is still checked once a minute at most.
 * Entries are frozen: callers share them.
 */

export const MAX_ENTRIES = 300;
export const MAX_BYTES = 8 * 1024 * 1024;
export const PARTIAL_MS = 60_000;

interface Entry {
  check: PrdCheck;
  bytes: number;
  expires: number;
}

const entries = new Map<string, Entry>();
let bytes = 0;
let computed = 0;

function keyOf(text: string, sections: string[] | undefined) {
  return crypto
    .createHash("sha256")
    .update(JSON.stringify(sections ?? null))
    .update("\0")
    .update(text)
    .digest("base64url");
}

/** The result's size in memory, roughly: its strings (2 bytes a character) and ~100 bytes an object. */
function sizeOf(check: PrdCheck) {
  let size = 1_000;
  for (const i of check.issues) size += 200 + 2 * (i.id.length + i.message.length + (i.excerpt?.length ?? 0) + (i.section?.length ?? 0));
  for (const list of Object.values(check.sections)) for (const s of list) size += 50 + 2 * s.length;
  return size;
}

function freeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) freeze(v);
    Object.freeze(value);
  }
  return value;
}

function drop(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  bytes -= entry.bytes;
}

/** The check of `text` against `sections`, from the cache when it was checked before; `budget`: the check's time budget and clock (tests). */
export function cachedCheck(text: string, sections: string[] | undefined, budget: Pick<CheckOptions, "budgetMs" | "now"> = {}): PrdCheck {
  const key = keyOf(text, sections);
  return lookup(key) ?? store(key, checkPrd(text, { sections, ...budget }));
}

/**
 * Texts longer than this are checked in the offline drafter's worker threads
 * (app/ai/builtin/offline-pool.server.ts), not in the server's: a 320 K-character
 * PRD takes 20–30 ms to check, and four such checks at once held every other
 * request for about 100 ms (npm run bench:abuse). Below it a check takes a
 * few milliseconds and the trip to a worker would cost more than it saves.
 */
export const OFF_THREAD_CHARS = 32_000;

/** `cachedCheck`, with a long text checked off the server's thread. */
export async function cachedCheckOffThread(text: string, sections: string[] | undefined): Promise<PrdCheck> {
  if (text.length <= OFF_THREAD_CHARS) return cachedCheck(text, sections);
  const key = keyOf(text, sections);
  const hit = lookup(key);
  if (hit) return hit;
  return store(key, await offlineDrafter.checkPrd(text, { sections }));
}

function lookup(key: string): PrdCheck | undefined {
  const hit = entries.get(key);
  if (!hit) return undefined;
  if (hit.expires > Date.now()) {
    entries.delete(key);
    entries.set(key, hit);
    return hit.check;
  }
  drop(key);
  return undefined;
}

function store(key: string, result: PrdCheck): PrdCheck {
  const check = freeze(result);
  computed++;
  drop(key);
  const entry = { check, bytes: sizeOf(check), expires: check.partial ? Date.now() + PARTIAL_MS : Number.POSITIVE_INFINITY };
  if (entry.bytes > MAX_BYTES) return check;
  entries.set(key, entry);
  bytes += entry.bytes;
  while (entries.size > MAX_ENTRIES || bytes > MAX_BYTES) drop(entries.keys().next().value!);
  return check;
}

/** What the cache holds, and how many checks it has run (tests). */
export function checkCacheStats() {
  return { entries: entries.size, bytes, computed };
}

export function clearCheckCache() {
  entries.clear();
  bytes = 0;
}
