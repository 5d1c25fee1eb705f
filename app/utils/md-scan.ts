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
const WORD = /\w/;
const isWordOrStar = (c: string) => c === "*" || WORD.test(c);

/** For each index, the first index ≥ it where `at` holds (`text.length` when none). */
function nextWhere(text: string, at: (i: number) => boolean) {
  const next = new Int32Array(text.length + 2).fill(text.length);
  for (let i = text.length - 1; i >= 0; i--) next[i] = at(i) ? i : next[i + 1]!;
  return next;
}

/** A global replace driven by `attempt(i)`: the end of a match at `i` and its replacement, or null. */
function replaceScan(text: string, attempt: (i: number) => [end: number, replacement: string] | null) {
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; ) {
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

/** `text.replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")` (images, `bang` = "!") and `text.replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")` (links). */
function links(text: string, image: boolean) {
  if (!text.includes("](")) return text;
  const close = nextWhere(text, (i) => text[i] === "]");
  const paren = nextWhere(text, (i) => text[i] === ")");
  const skip = image ? 2 : 1;
  return replaceScan(text, (i) => {
    if (image ? text[i] !== "!" || text[i + 1] !== "[" : text[i] !== "[") return null;
    const j = close[i + skip]!;
    if (j >= text.length || (!image && j === i + 1) || text[j + 1] !== "(") return null;
    const k = paren[j + 2]!;
    return k < text.length ? [k + 1, text.slice(i + skip, j)] : null;
  });
}

/** `text.replace(/(\*\*|__)(.+?)\1/g, "$2")`. */
function strong(text: string) {
  if (!text.includes("**") && !text.includes("__")) return text;
  const stars = nextWhere(text, (i) => text[i] === "*" && text[i + 1] === "*");
  const unders = nextWhere(text, (i) => text[i] === "_" && text[i + 1] === "_");
  const terminator = nextWhere(text, (i) => isTerminator(text[i]));
  return replaceScan(text, (i) => {
    const next = text[i] === "*" && text[i + 1] === "*" ? stars : text[i] === "_" && text[i + 1] === "_" ? unders : null;
    if (!next || i + 3 > text.length) return null;
    const k = next[i + 3]!;
    return k < text.length && terminator[i + 2]! >= k ? [k + 2, text.slice(i + 2, k)] : null;
  });
}

/** `text.replace(/(^|[^\w*])[*_](?!\s)(.+?)[*_](?=[^\w*]|$)/g, "$1$2")`. */
function emphasis(text: string) {
  if (!text.includes("*") && !text.includes("_")) return text;
  const n = text.length;
  const closer = nextWhere(text, (k) => (text[k] === "*" || text[k] === "_") && (k + 1 === n || !isWordOrStar(text[k + 1]!)));
  const terminator = nextWhere(text, (i) => isTerminator(text[i]));
  /** The emphasis opened by the marker at p: its end and inner text. */
  const from = (p: number): [number, string] | null => {
    if (p >= n || (text[p] !== "*" && text[p] !== "_") || isWs(text[p + 1]) || p + 2 > n) return null;
    const k = closer[p + 2]!;
    return k < n && terminator[p + 1]! >= k ? [k + 1, text.slice(p + 1, k)] : null;
  };
  return replaceScan(text, (i) => {
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
  const gt = nextWhere(text, (i) => text[i] === ">");
  return replaceScan(text, (i) => {
    if (text[i] !== "<") return null;
    const j = gt[i + 1]!;
    return j < text.length && j > i + 1 ? [j + 1, ""] : null;
  });
}

/** Markdown inline markers removed: emphasis, code ticks, links (text kept), images. */
export function plainInline(text: string) {
  return tags(emphasis(strong(links(links(text, true), false))).replace(/`([^`]+)`/g, "$1")).trim();
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
