import crypto from "node:crypto";
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
export const MAX_BYTES = 32 * 1024 * 1024;
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
  const hit = entries.get(key);
  if (hit && hit.expires > Date.now()) {
    entries.delete(key);
    entries.set(key, hit);
    return hit.check;
  }
  drop(key);
  const check = freeze(checkPrd(text, { sections, ...budget }));
  computed++;
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
