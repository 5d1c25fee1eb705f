/**
 * Hand-written matchers for the PRD check's patterns that a regular
 * expression would backtrack on (issue 33): a user story ("As a …, I
 * want"), "given … then", bracketed TODOs ("[insert figure here]"), a
 * "TODO: …" line and a labelled placeholder ("Owner: to be agreed"). Each
 * answers exactly what the expression in its comment answers
 * (tests/unit/prd-matchers.test.ts compares them on random text) in time
 * linear in the length of the text; the expressions took quadratic or
 * worse time on long runs of spaces, "[add [add …" or "given given …".
 * Nothing here builds a RegExp from the text it reads.
 */

const WS = /\s/;
const isWs = (c: string | undefined) => c !== undefined && WS.test(c);
const WORD = /\w/;
const TERMINATOR = /[\n\r\u2028\u2029]/;

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

/** For each index, the first index ≥ it where `at` holds (`text.length` when none). */
function nextWhere(text: string, at: (i: number) => boolean) {
  const next = new Int32Array(text.length + 2).fill(text.length);
  for (let i = text.length - 1; i >= 0; i--) next[i] = at(i) ? i : next[i + 1]!;
  return next;
}

/** Whether `word` (lower-case ASCII) is at `i`, ASCII letters compared without case (as the `i` flag does). */
function wordAt(text: string, i: number, word: string) {
  if (i < 0 || i + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(i + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}

const I_WANT = /(?<=\s)i(?=\s+(?:want|need|would like|can|should be able)\b)/gi;
const AS = /\bas(?=\s)/gi;

/**
 * `/\bas\s+(?:an?\s+)?[^,.]{1,80}?,?\s+i\s+(?:want|need|would like|can|should be able)\b/i.test(text)`:
 * "As a patient, I want…", "As Dan, I want…". Between "as" and "I want"
 * comes a persona X of 1 to 80 characters without "," or "." (after the
 * spaces, and after "a"/"an"), then an optional comma and spaces.
 */
export function isStory(text: string): boolean {
  if (!/\bas\s/i.test(text) || !/\si\s/i.test(text)) return false;
  const n = text.length;
  // Each finder is asked in increasing order as the "as" move right: one pass each.
  const nextWant = finder(text, I_WANT);
  if (nextWant(0) >= n) return false;
  const wantAfterComma = finder(text, new RegExp(I_WANT));
  const [leadingEnd, groupEnd, commaEnd] = [finder(text, /\S/g), finder(text, /\S/g), finder(text, /\S/g)];
  const stopAt = finder(text, /[,.]/g);
  let lastQ = -1;
  let lastRun = -1;
  /** The start of the run of spaces that ends just before `q`. */
  const runStart = (q: number) => {
    if (q === lastQ) return lastRun;
    let r = q;
    while (r > 0 && isWs(text[r - 1])) r--;
    [lastQ, lastRun] = [q, r];
    return r;
  };
  for (const m of text.matchAll(AS)) {
    const a = m.index + 2;
    const s1 = leadingEnd(a);
    const leading = s1 - a;
    // Only spaces between "as" and "I": X is spaces too.
    if (nextWant(s1) === s1 && leading >= 3) return true;
    // "a " / "an " after the spaces: X may start after it.
    let group = -1;
    if (text[s1] === "a" || text[s1] === "A") {
      if (isWs(text[s1 + 1])) group = s1 + 1;
      else if ((text[s1 + 1] === "n" || text[s1 + 1] === "N") && isWs(text[s1 + 2])) group = s1 + 2;
    }
    const s2 = group < 0 ? -1 : groupEnd(group);
    /** Whether X can end at `end`: 1 to 80 characters after the spaces (or after "a "). */
    const fits = (end: number) => {
      const len1 = end - s1;
      if (len1 === 0) return leading >= 2;
      if (len1 <= 80) return true;
      if (s2 < 0 || s2 > end) return false;
      const len2 = end - s2;
      return len2 === 0 ? s2 - group >= 2 : len2 <= 80;
    };
    // No comma: X ends where the spaces before the first "I want" start.
    const q = nextWant(s1 + 1);
    const c = stopAt(s1);
    if (q < n) {
      const r = runStart(q);
      if (c >= r && fits(r)) return true;
    }
    // With the comma: X ends at the first "," (none of "," or "." before it).
    if (c < n && text[c] === "," && isWs(text[c + 1])) {
      const q2 = commaEnd(c + 1);
      if (wantAfterComma(q2) === q2 && fits(c)) return true;
    }
  }
  return false;
}

/** `/acceptance criteria|\bgiven\b.*\bthen\b/i.test(text)`: "then" after "given" on one line. */
export function hasGivenThen(text: string): boolean {
  if (/acceptance criteria/i.test(text)) return true;
  if (!/\bgiven\b/i.test(text)) return false;
  const then = /\bthen\b/gi;
  for (const segment of text.split(TERMINATOR)) {
    const given = /\bgiven\b/i.exec(segment);
    if (!given) continue;
    then.lastIndex = given.index + 5;
    if (then.test(segment)) return true;
  }
  return false;
}

/** `text.match(/\[(?:placeholder|insert[^\]]*|tbd|todo|to be [^\]]*|add [^\]]*here)\]/gi) ?? []`. */
export function bracketTodos(text: string): string[] {
  if (!text.includes("[")) return [];
  const close = finder(text, /\]/g);
  const found: string[] = [];
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1)) {
    const j = close(i + 1);
    if (j >= text.length) break;
    const from = i + 1;
    const length = j - from;
    const exactly = (word: string) => length === word.length && wordAt(text, from, word);
    if (
      exactly("placeholder") ||
      exactly("tbd") ||
      exactly("todo") ||
      wordAt(text, from, "insert") ||
      (length >= 6 && wordAt(text, from, "to be ")) ||
      (length >= 8 && wordAt(text, from, "add ") && wordAt(text, j - 4, "here"))
    ) {
      found.push(text.slice(i, j + 1));
      i = j;
    }
  }
  return found;
}

const MARKER = /^(?:TODO|TBD|TBA|FIXME|XXX)\b/i;
const MARKER_TAIL = /[\s:.!-]/;

/** `/^(?:TODO|TBD|TBA|FIXME|XXX)\b[\s:.!-]*(.*)$/i.exec(text)?.[1] ?? null`: what a "TODO: …" line says. */
export function afterTodoMarker(text: string): string | null {
  const marker = MARKER.exec(text);
  if (!marker) return null;
  let i = marker[0].length;
  while (i < text.length && MARKER_TAIL.test(text[i]!)) i++;
  const rest = text.slice(i);
  return TERMINATOR.test(rest) ? null : rest;
}

const VALUE_STARTS = new Set("tTuUpPnN");
const LABEL = /[\w /&-]/;
const ASCII_LETTER = /[A-Za-z]/;
const W_STOP = new Set("|;,.()");
const TAIL_END = new Set("|;),");

/**
 * `new RegExp(\`(?:^|[|;(]|\\b[A-Za-z][\\w /&-]{0,40}?:)\\s*${value}(?:\\s+(?:with|by)\\s+[^|;,.()]{1,60})?\\s*[.!]?\\s*(?=$|[|;),])\`, "i").test(text)`
 * for the placeholder values `value` (a constant, sticky expression): a
 * value after the start, a "|", ";" or "(", or a label and ":", and nothing
 * after it but "with …"/"by …", a full stop and the end of the cell.
 */
export function isLabelledPlaceholder(text: string, value: RegExp): boolean {
  const n = text.length;
  const spaceEnd = nextWhere(text, (i) => !isWs(text[i]));
  const stopAt = nextWhere(text, (i) => W_STOP.has(text[i]!));
  /** `\s*[.!]?\s*(?=$|[|;),])` at `e`. */
  const tail = (e: number) => {
    let y = spaceEnd[e]!;
    if (text[y] === "." || text[y] === "!") y = spaceEnd[y + 1]!;
    return y >= n || TAIL_END.has(text[y]!);
  };
  const before = (u: number) => {
    let z = u;
    while (z > 0 && isWs(text[z - 1])) z--;
    if (z === 0 || "|;(".includes(text[z - 1]!)) return true;
    if (text[z - 1] !== ":") return false;
    for (let s = z - 2; s >= 0 && s >= z - 42 && LABEL.test(text[s]!); s--) {
      if (ASCII_LETTER.test(text[s]!) && (s === 0 || !WORD.test(text[s - 1]!))) return true;
    }
    return false;
  };
  const after = (v: number) => {
    if (tail(v)) return true;
    const j = spaceEnd[v]!;
    if (j === v) return false;
    const word = wordAt(text, j, "with") ? 4 : wordAt(text, j, "by") ? 2 : 0;
    if (!word) return false;
    const a = j + word;
    const b = spaceEnd[a]!;
    if (b === a) return false;
    if (b >= a + 2 && tail(b)) return true;
    const last = Math.min(b + 60, stopAt[b]!);
    for (let e = b + 1; e <= last; e++) if (tail(e)) return true;
    return false;
  };
  for (let u = 0; u < n; u++) {
    if (!VALUE_STARTS.has(text[u]!)) continue;
    value.lastIndex = u;
    const m = value.exec(text);
    if (m && before(u) && after(u + m[0].length)) return true;
  }
  return false;
}
