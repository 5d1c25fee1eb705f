/**
 * Linear-time scanners behind app/utils/md-doc.ts. Each gives exactly what
 * the regular expression in its comment gives (tests/unit/md-scan.test.ts
 * compares them on random text), without backtracking: those expressions
 * take time quadratic (or worse) in the length of a line on input such as
 * "[[[[…", "<<<<…", "*a *a *a…" or "# a" followed by many spaces, and a PRD
 * check runs them on every line (issue 33).
 */

const WS = /\s/;
const isWs = (c: string | undefined) => c !== undefined && WS.test(c);
/** What `.` does not match (no `s` flag). */
const isTerminator = (c: string | undefined) => c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029";
const TERMINATORS = /[\n\r\u2028\u2029]/g;
const WORD = /\w/;
const isWordOrStar = (c: string) => c === "*" || WORD.test(c);

/**
 * `find(x)`: the first index ≥ x where `pattern` (global) matches, `text.length`
 * when none. The last answer is reused while it still holds, so queries in
 * increasing order cost one pass over the text in all.
 */
function finder(text: string, pattern: RegExp) {
  let from = Number.POSITIVE_INFINITY;
  let found = text.length;
  return (x: number) => {
    if (x >= from && found >= x) return found;
    from = x;
    pattern.lastIndex = x;
    found = (x < text.length ? pattern.exec(text)?.index : undefined) ?? text.length;
    return found;
  };
}

/**
 * A global replace: `next(i)` is the first index ≥ i where a match may start,
 * `attempt(i)` the end of the match at `i` and its replacement, or null.
 */
function replaceScan(text: string, next: (i: number) => number, attempt: (i: number) => [end: number, replacement: string] | null) {
  let out = "";
  let copied = 0;
  for (let i = next(0); i < text.length; i = next(i)) {
    const hit = attempt(i);
    if (!hit) {
      i++;
      continue;
    }
    out += text.slice(copied, i) + hit[1];
    copied = i = hit[0];
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** `text.replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")` (images) and `text.replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")` (links). */
function links(text: string, image: boolean) {
  if (!text.includes("](")) return text;
  const open = finder(text, image ? /!\[/g : /\[/g);
  const close = finder(text, /\]/g);
  const paren = finder(text, /\)/g);
  const skip = image ? 2 : 1;
  return replaceScan(text, open, (i) => {
    const j = close(i + skip);
    if (j >= text.length || (!image && j === i + 1) || text[j + 1] !== "(") return null;
    const k = paren(j + 2);
    return k < text.length ? [k + 1, text.slice(i + skip, j)] : null;
  });
}

/** `text.replace(/(\*\*|__)(.+?)\1/g, "$2")`. */
function strong(text: string) {
  if (!text.includes("**") && !text.includes("__")) return text;
  const open = finder(text, /\*\*|__/g);
  const stars = finder(text, /\*\*/g);
  const unders = finder(text, /__/g);
  const terminator = finder(text, TERMINATORS);
  return replaceScan(text, open, (i) => {
    if (i + 3 > text.length) return null;
    const k = (text[i] === "*" ? stars : unders)(i + 3);
    return k < text.length && terminator(i + 2) >= k ? [k + 2, text.slice(i + 2, k)] : null;
  });
}

/** `text.replace(/(^|[^\w*])[*_](?!\s)(.+?)[*_](?=[^\w*]|$)/g, "$1$2")`. */
function emphasis(text: string) {
  if (!text.includes("*") && !text.includes("_")) return text;
  const n = text.length;
  const marker = finder(text, /[*_]/g);
  const closer = finder(text, /[*_](?=[^\w*]|$)/g);
  const terminator = finder(text, TERMINATORS);
  /** The emphasis opened by the marker at p: its end and inner text. */
  const from = (p: number): [number, string] | null => {
    if (p >= n || (text[p] !== "*" && text[p] !== "_") || isWs(text[p + 1]) || p + 2 > n) return null;
    const k = closer(p + 2);
    return k < n && terminator(p + 1) >= k ? [k + 1, text.slice(p + 1, k)] : null;
  };
  // A match starts at 0 (a marker there) or just before a marker.
  const next = (i: number) => {
    if (i === 0 && marker(0) === 0) return 0;
    const p = marker(i + 1);
    return p < n ? p - 1 : n;
  };
  return replaceScan(text, next, (i) => {
    const atStart = i === 0 ? from(0) : null;
    if (atStart) return atStart;
    if (isWordOrStar(text[i]!)) return null;
    const after = from(i + 1);
    return after ? [after[0], text[i] + after[1]] : null;
  });
}

/** `text.replace(/<[^>]+>/g, "")`. */
function tags(text: string) {
  if (!text.includes("<")) return text;
  const open = finder(text, /</g);
  const gt = finder(text, />/g);
  return replaceScan(text, open, (i) => {
    const j = gt(i + 1);
    return j < text.length && j > i + 1 ? [j + 1, ""] : null;
  });
}

const CODE = /`([^`]+)`/g;
/** A character every pass below needs: without one, the text only loses its outer spaces. */
const MARKUP = /[[*_`<]/;

/** Markdown inline markers removed: emphasis, code ticks, links (text kept), images. */
export function plainInline(text: string) {
  if (!MARKUP.test(text)) return text.trim();
  const marked = emphasis(strong(links(links(text, true), false)));
  return tags(marked.includes("`") ? marked.replace(CODE, "$1") : marked).trim();
}

/** `/^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(trimmed)` as [level, text], for text already trimmed. */
export function headingOf(trimmed: string): [level: number, text: string] | null {
  let h = 0;
  while (trimmed[h] === "#") h++;
  if (h === 0 || h > 6 || !isWs(trimmed[h])) return null;
  let start = h;
  while (isWs(trimmed[start])) start++;
  const n = trimmed.length;
  if (start >= n) return null;
  // The shortest text after which only spaces then hashes remain.
  let end = n;
  while (end > start && trimmed[end - 1] === "#") end--;
  while (end > start && isWs(trimmed[end - 1])) end--;
  if (end === start) end = start + 1;
  for (let i = start; i < end; i++) if (isTerminator(trimmed[i])) return null;
  return [h, trimmed.slice(start, end)];
}

/**
 * `/^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/.exec(text)` as
 * [indent, rest]: a list item's marker, spaces and checkbox, then the rest of
 * the line (null when the rest crosses a line terminator, as `.` does not).
 */
export function listItemOf(text: string): [indent: string, rest: string] | null {
  let i = 0;
  while (isWs(text[i])) i++;
  const indent = i;
  if (text[i] === "-" || text[i] === "*" || text[i] === "+") i++;
  else {
    const digits = i;
    while (text[i]! >= "0" && text[i]! <= "9") i++;
    if (i === digits || (text[i] !== "." && text[i] !== ")")) return null;
    i++;
  }
  if (!isWs(text[i])) return null;
  while (isWs(text[i])) i++;
  let rest = i;
  if (text[i] === "[" && (text[i + 1] === " " || text[i + 1] === "x" || text[i + 1] === "X") && text[i + 2] === "]" && isWs(text[i + 3])) {
    rest = i + 3;
    while (isWs(text[rest])) rest++;
  }
  for (let k = rest; k < text.length; k++) if (isTerminator(text[k])) return null;
  return [text.slice(0, indent), text.slice(rest)];
}
