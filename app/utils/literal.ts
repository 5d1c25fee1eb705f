/**
 * Matching the user's own words without compiling them into a regular
 * expression (issue 33: a persona "(about 2,600 bookings a year)" made a
 * pattern that did not compile, and "(a+)+(a+)+…" one that backtracked for
 * minutes). Everything here is plain string search, linear in the text, and
 * the helpers that replace end-anchored character-class patterns
 * (`/[\s.;:,!?]+$/`) scan from the end instead of from every position.
 */

/** `\w` without the `u` flag: ASCII letters, digits and underscore. */
const isWordChar = (c: string | undefined) => c !== undefined && /^\w$/.test(c);

/** The text lower-cased with its length kept (a character whose lower case is longer, like "İ", stays as written). */
export function foldCase(text: string) {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = "";
  for (const c of text) {
    const l = c.toLowerCase();
    out += l.length === c.length ? l : c;
  }
  return out;
}

/**
 * Where `word` occurs in `text` as a whole word, any case, followed by one of
 * `suffixes` (or nothing): the start and end of the first such occurrence.
 * A boundary is required only on a side where `word` (or the suffix) has a
 * word character, as `\b` would; "year)" is found in "a year) later".
 */
export function findWord(text: string, word: string, suffixes: string[] = [""]): { start: number; end: number } | null {
  const needle = foldCase(word);
  if (!needle) return null;
  const hay = foldCase(text);
  const ends = [...new Set(["", ...suffixes.map(foldCase)])].sort((a, b) => b.length - a.length);
  const wordStart = isWordChar(needle[0]);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (wordStart && isWordChar(hay[at - 1])) {
      // Inside a word: no match can start before the next non-word character (keeps "aaaa…" linear).
      while (at < hay.length && isWordChar(hay[at])) at++;
      continue;
    }
    const after = at + needle.length;
    for (const suffix of ends) {
      if (!hay.startsWith(suffix, after)) continue;
      const end = after + suffix.length;
      const last = suffix ? suffix.at(-1) : needle.at(-1);
      if (isWordChar(last) && isWordChar(hay[end])) continue;
      return { start: at, end };
    }
  }
  return null;
}

export const hasWord = (text: string, word: string, suffixes?: string[]) => findWord(text, word, suffixes) !== null;

/**
 * Where the words of `phrase` (split on spaces) occur in `text` in a row, any
 * case, with any whitespace between them: the text as the user wrote it, or
 * null. Plain search, not `new RegExp(phrase.split(" ").join("\\s+"), "i")`.
 */
export function findPhrase(text: string, phrase: string): string | null {
  const parts = foldCase(phrase).split(" ").filter(Boolean);
  if (!parts.length) return null;
  const hay = foldCase(text);
  for (let at = hay.indexOf(parts[0]!); at >= 0; at = hay.indexOf(parts[0]!, at + 1)) {
    let end = at + parts[0]!.length;
    let ok = true;
    for (const part of parts.slice(1)) {
      let gap = end;
      while (gap < hay.length && /\s/.test(hay[gap]!)) gap++;
      if (gap === end || !hay.startsWith(part, gap)) {
        ok = false;
        break;
      }
      end = gap + part.length;
    }
    if (ok) return text.slice(at, end);
  }
  return null;
}

/** `text.replace(/[…]+$/, "")`: the end of `text` cut while `drop` holds for its last character, scanning from the end (the pattern retries from every position). */
export function trimEndWhere(text: string, drop: (c: string) => boolean) {
  let end = text.length;
  while (end > 0 && drop(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * How many times `stem` begins a word of `text`, any case, counting at most
 * `limit`: what `text.match(new RegExp("(?:^|[^a-z0-9])" + stem, "gi"))`
 * counts (the topic cues' boundary: anything but an ASCII letter or digit).
 */
export function countWordStarts(text: string, stem: string, limit = Number.POSITIVE_INFINITY) {
  const needle = foldCase(stem);
  if (!needle) return 0;
  const hay = foldCase(text);
  const alnum = (c: string) => (c >= "a" && c <= "z") || (c >= "0" && c <= "9");
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0 && n < limit; at = hay.indexOf(needle, at + needle.length)) {
    if (at === 0 || !alnum(hay[at - 1]!)) n++;
  }
  return n;
}

export interface Range {
  start: number;
  end: number;
}

/**
 * Every occurrence of any of `needles` in `text`, any case, left to right,
 * the longest where several start at one place, none overlapping: what
 * `text.matchAll(new RegExp(needles.map(escape).join("|"), "gi"))` finds with
 * the longest needle first, without compiling them.
 */
export function findAll(text: string, needles: string[]): Range[] {
  const hay = foldCase(text);
  const found: Range[] = [];
  for (const needle of new Set(needles.map(foldCase))) {
    if (!needle) continue;
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) found.push({ start: at, end: at + needle.length });
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Range[] = [];
  for (const r of found) if (!out.length || r.start >= out.at(-1)!.end) out.push(r);
  return out;
}

/**
 * Where `@name` occurs in `text`, any case, as a mention: not right after a
 * letter, digit, `_` or `@` and not followed by a letter, digit or `_`
 * (Unicode classes, so `@José` is not found in `@Joséphine`).
 */
export function findMentions(text: string, name: string): Range[] {
  const needle = `@${foldCase(name)}`;
  const hay = foldCase(text);
  const out: Range[] = [];
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = at > 0 ? hay[at - 1] : undefined;
    const after = hay[at + needle.length];
    if ((before === undefined || (!isNameChar(before) && before !== "@")) && (after === undefined || !isNameChar(after))) {
      out.push({ start: at, end: at + needle.length });
    }
  }
  return out;
}

/** A letter or digit in any script, or `_`. */
const isNameChar = (c: string) => c === "_" || /[\p{L}\p{N}]/u.test(c);
