import { diffChars } from "diff";

/**
 * Finding a quoted passage again in a text that may have changed since it
 * was quoted (comment anchors). Pure, and the same in the browser and on the
 * server: the server runs it on the PRD's plain text to say whether a comment
 * is still anchored; an editor runs it on its own text to draw highlights.
 *
 * Matching ignores whitespace (spaces, line and block breaks) and case, and
 * treats curly quotes, dashes and the ellipsis like their ASCII forms. When
 * the quote occurs several times, the occurrence whose surroundings best match
 * the anchor's `prefix`/`suffix` wins. When it no longer occurs as such, a
 * passage within a few edits of it (a fifth of its length, at most 32) is
 * accepted (character diff, the `diff` package).
 */

export interface TextAnchor {
  quote: string;
  prefix?: string | null;
  suffix?: string | null;
}

export interface TextRange {
  start: number;
  end: number;
}

/** A text folded for matching: `starts[i]` is where folded unit `i` comes from in the original. */
interface Folded {
  text: string;
  starts: Int32Array;
}

const SKIP = /[\s\u200b-\u200d\u2060\ufeff\u00ad]/u;
const SAME: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201b": "'",
  "\u2032": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u2033": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2212": "-",
  "\u2026": "...",
};

function fold(input: string): Folded {
  let text = "";
  let starts = new Int32Array(input.length + 8);
  let n = 0;
  let at = 0;
  for (const ch of input) {
    if (!SKIP.test(ch)) {
      const out = SAME[ch] ?? ch.toLowerCase();
      text += out;
      if (n + out.length > starts.length) {
        const grown = new Int32Array(starts.length * 2 + out.length);
        grown.set(starts);
        starts = grown;
      }
      for (let k = 0; k < out.length; k++) starts[n++] = at;
    }
    at += ch.length;
  }
  return { text, starts: starts.subarray(0, n) };
}

/** Where the original character that folded unit `i` comes from ends. */
function endOf(input: string, folded: Folded, i: number) {
  const start = folded.starts[i]!;
  return start + ((input.codePointAt(start) ?? 0) > 0xffff ? 2 : 1);
}

const MAX_OCCURRENCES = 1000;
const MAX_CANDIDATES = 16;
/** Up to this many occurrences, their context is compared edit-tolerantly (a diff each); beyond, only the adjacent context. */
const TOLERANT_UP_TO = 50;
const CONTEXT = 64;

function occurrences(haystack: string, needle: string, limit: number) {
  const out: number[] = [];
  if (!needle) return out;
  for (let i = haystack.indexOf(needle); i !== -1 && out.length < limit; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

function commonPrefix(a: string, b: string) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function commonSuffix(a: string, b: string) {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** Characters the two strings share in order (so an edit near the quote costs a little, not everything). */
function shared(a: string, b: string) {
  if (!a || !b) return 0;
  const changes = diffChars(a, b, { maxEditLength: a.length + b.length });
  if (!changes) return 0;
  return changes.reduce((n, c) => (c.added || c.removed ? n : n + c.value.length), 0);
}

/**
 * How well the text around [start, end) matches the anchor's prefix and
 * suffix: context adjacent to the quote and unchanged counts double; with
 * `tolerant`, context shared further away (past an edit) counts too.
 */
function contextScore(text: string, start: number, end: number, prefix: string, suffix: string, tolerant: boolean) {
  let score = 0;
  if (prefix) {
    const before = text.slice(Math.max(0, start - prefix.length), start);
    score += 2 * commonSuffix(prefix, before) + (tolerant ? shared(prefix, before) : 0);
  }
  if (suffix) {
    const after = text.slice(end, end + suffix.length);
    score += 2 * commonPrefix(suffix, after) + (tolerant ? shared(suffix, after) : 0);
  }
  return score;
}

interface Hit {
  start: number;
  end: number;
  distance: number;
}

/** Edits between two strings, a substitution counting once: each run of changes costs the larger of its removals and additions. */
function editDistance(a: string, b: string, max: number) {
  const changes = diffChars(a, b, { maxEditLength: 2 * max + 2 });
  if (!changes) return Number.POSITIVE_INFINITY;
  let total = 0;
  let removed = 0;
  let added = 0;
  for (const c of [...changes, { value: "", added: false, removed: false }]) {
    if (c.removed) removed += c.value.length;
    else if (c.added) added += c.value.length;
    else {
      total += Math.max(removed, added);
      removed = 0;
      added = 0;
    }
  }
  return total;
}

/**
 * The passage of `window` closest to `quote`, from a character diff of the
 * two: the run of changes where the characters shared with the quote most
 * outweigh the window's extra characters (a maximum-sum run, so stray shared
 * letters far from the passage are left out), widened over a changed first or
 * last character of the quote.
 */
function bestSpan(quote: string, window: string, maxEdits: number): TextRange | null {
  // A passage within maxEdits of the quote leaves at most this many changes against the whole window: give up beyond.
  const changes = diffChars(quote, window, { maxEditLength: 3 * maxEdits + Math.max(0, window.length - quote.length) });
  if (!changes) return null;
  const parts: { q: number; w: number; len: number; kind: "same" | "added" | "removed" }[] = [];
  let q = 0;
  let w = 0;
  for (const c of changes) {
    const len = c.value.length;
    parts.push({ q, w, len, kind: c.added ? "added" : c.removed ? "removed" : "same" });
    if (!c.added) q += len;
    if (!c.removed) w += len;
  }
  let best = 0;
  let bestFrom = -1;
  let bestTo = -1;
  let sum = 0;
  let from = -1;
  for (const [i, p] of parts.entries()) {
    if (p.kind === "added") sum -= p.len;
    if (p.kind !== "same") continue;
    if (sum <= 0) {
      sum = 0;
      from = i;
    }
    sum += p.len;
    if (sum > best) {
      best = sum;
      bestFrom = from;
      bestTo = i;
    }
  }
  const first = parts[bestFrom];
  const last = parts[bestTo];
  if (!first || !last) return null;
  // Window characters between the run and the shared characters outside it stand for the quote's edited edges.
  const before = parts.slice(0, bestFrom).findLast((p) => p.kind === "same");
  const after = parts.slice(bestTo + 1).find((p) => p.kind === "same");
  const room = { before: first.w - (before ? before.w + before.len : 0), after: (after ? after.w : window.length) - (last.w + last.len) };
  const lead = Math.min(first.q, room.before, maxEdits);
  const trail = Math.min(quote.length - (last.q + last.len), room.after, maxEdits);
  return { start: first.w - lead, end: last.w + last.len + trail };
}

function fuzzy(text: string, quote: string, prefix: string, suffix: string): Hit[] {
  const maxEdits = Math.min(32, Math.floor(quote.length / 5));
  if (maxEdits < 1) return [];
  // Places where the quote may start: where each of its pieces still is.
  const starts: number[] = [];
  const pieces = Math.min(8, Math.max(2, Math.floor(quote.length / 8)));
  const size = Math.floor(quote.length / pieces);
  for (let k = 0; k < pieces; k++) {
    const offset = k * size;
    for (const at of occurrences(text, quote.slice(offset, offset + size), 8)) starts.push(at - offset);
  }
  if (!starts.length) {
    // No piece left intact: where the context still is, the rewritten passage may be.
    const tail = prefix.slice(-16);
    if (tail.length >= 4) for (const at of occurrences(text, tail, 3)) starts.push(at + tail.length);
    const head = suffix.slice(0, 16);
    if (head.length >= 4) for (const at of occurrences(text, head, 3)) starts.push(at - quote.length);
  }
  starts.sort((a, b) => a - b);
  const slack = maxEdits + 4;
  const candidates: number[] = [];
  for (const s of starts) if (!candidates.length || s - candidates[candidates.length - 1]! > slack) candidates.push(s);

  const hits: Hit[] = [];
  for (const c of candidates.slice(0, MAX_CANDIDATES)) {
    const from = Math.max(0, c - slack);
    const to = Math.min(text.length, c + quote.length + slack);
    if (to <= from) continue;
    const span = bestSpan(quote, text.slice(from, to), maxEdits);
    if (!span) continue;
    const start = from + span.start;
    const end = from + span.end;
    const distance = editDistance(quote, text.slice(start, end), maxEdits);
    if (distance <= maxEdits) hits.push({ start, end, distance });
  }
  return hits;
}

/**
 * A locator for one text: folds it once, then finds any number of anchors in
 * it (a list of comments over the same PRD).
 */
export function createLocator(text: string) {
  const folded = fold(text);
  return (anchor: TextAnchor): TextRange | null => {
    const quote = fold(anchor.quote).text;
    if (!quote || !folded.text) return null;
    const prefix = fold(anchor.prefix ?? "").text.slice(-CONTEXT);
    const suffix = fold(anchor.suffix ?? "").text.slice(0, CONTEXT);
    let hits: Hit[] = occurrences(folded.text, quote, MAX_OCCURRENCES).map((start) => ({ start, end: start + quote.length, distance: 0 }));
    if (!hits.length) hits = fuzzy(folded.text, quote, prefix, suffix);
    let best: (Hit & { score: number }) | null = null;
    for (const hit of hits) {
      const score = hits.length > 1 ? contextScore(folded.text, hit.start, hit.end, prefix, suffix, hits.length <= TOLERANT_UP_TO) : 0;
      if (!best || hit.distance < best.distance || (hit.distance === best.distance && score > best.score)) best = { ...hit, score };
    }
    if (!best || best.end <= best.start) return null;
    return { start: folded.starts[best.start]!, end: endOf(text, folded, best.end - 1) };
  };
}

/**
 * Where `anchor.quote` is in `text` (`text.slice(start, end)` is the passage),
 * or null when it is gone. See the module comment for how it matches.
 */
export function locateQuote(text: string, anchor: TextAnchor): TextRange | null {
  return createLocator(text)(anchor);
}
