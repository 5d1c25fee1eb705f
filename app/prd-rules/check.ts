import { type Doc, type DocLine, readDoc } from "~/utils/md-doc";
import { type CheckIssue, IssueList, MAX_ISSUES, type Severity } from "./issues";
import {
  ACCEPTANCE,
  DEFAULT_OUTLINE,
  HEADING,
  STORY,
  VAGUE,
  goalUnits,
  isGoalSection,
  isPlaceholder,
  placeholderPhrase,
  presentSections,
  prose,
  QUESTIONS_TITLE,
  TABLE_SEPARATOR,
  todoMarkers,
} from "./rules";
import { hasGivenThen } from "./matchers";

export { type CheckIssue, type CheckRule, MAX_ISSUES, SEVERITY, type Severity } from "./issues";

/**
 * The rule-based PRD check: instant, offline, deterministic. Measures the
 * document against its expected sections (a template's, or a standard
 * outline) and a few writing rules, and reports each issue with its H2
 * section and 1-based line. Fenced code and inline code are never checked.
 *
 * One pass over the lines, each line's section looked up in a table, and
 * patterns that never backtrack (./matchers.ts): linear in the length of the
 * document (issue 33; docs/benchmarks.md, "PRD check at 320 K characters").
 * At most `maxIssues` issues are returned, and the work stops after
 * `budgetMs` (`partial`).
 */

export interface CheckStats {
  words: number;
  sections: number;
  listItems: number;
  goals: number;
  goalsWithNumbers: number;
  stories: number;
  storiesWithAcceptance: number;
  todos: number;
  vagueWords: number;
  placeholders: number;
  [key: string]: number;
}

export interface PrdCheck {
  /** The first `maxIssues` issues, most severe first. */
  issues: CheckIssue[];
  /** All issues found, by severity (also those beyond the cap). */
  counts: Record<Severity, number>;
  /** All issues found; more than `issues.length` when `truncated`. */
  totalIssues: number;
  truncated: boolean;
  /** The time budget ran out: the lines after `checkedLines` were not checked. */
  partial: boolean;
  checkedLines: number;
  sections: { expected: string[]; present: string[]; missing: string[] };
  stats: CheckStats;
}

export interface CheckOptions {
  sections?: string[];
  /** Issues returned at most (MAX_ISSUES). */
  maxIssues?: number;
  /** Milliseconds of work before the check stops with what it found (BUDGET_MS). */
  budgetMs?: number;
  /** The clock the budget is measured on (tests). */
  now?: () => number;
}

/** Far beyond the ~50 ms a 320 K-character PRD takes; only hostile input gets near it. */
export const BUDGET_MS = 1500;

const INLINE_CODE = /`[^`]*`/g;
const OPEN_QUESTION = /^(?:(?:[-*+]|\d+[.)])\s*)?open question\b/i; // on trimmed text: the old leading \s* matched nothing
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const ITEM_MARKER = /^\s*(?:[-*+]|\d+[.)]|>|#{1,6})\s+(?:\[[ xX]\]\s+)?/;

/** For each line number, the H2 section containing it (null for the preamble). */
function sectionTable(doc: Doc, lineCount: number) {
  const table: (string | null)[] = new Array(lineCount + 2).fill(null);
  const titled = doc.sections.filter((s) => s.title);
  titled.forEach((s, i) => {
    const end = Math.min(titled[i + 1]?.line ?? lineCount + 1, lineCount + 1);
    for (let line = s.line; line < end; line++) table[line] = s.title;
  });
  return table;
}

/** For each line number k (of `lineCount` lines of `normalized`), how many lines up to k are inside (or are) fenced code. */
function fencedCounts(normalized: string, lineCount: number) {
  const counts = new Int32Array(lineCount + 2);
  if (normalized.includes("```") || normalized.includes("~~~")) {
    // `^\s*(```|~~~)` on each line, read in place: the spaces cannot cross the line's end.
    const fence = /[^\S\n]*(?:```|~~~)/y;
    let open = false;
    for (let k = 1, start = 0; k <= lineCount; k++) {
      fence.lastIndex = start;
      const isFence = fence.test(normalized);
      counts[k] = counts[k - 1]! + (isFence || open ? 1 : 0);
      if (isFence) open = !open;
      start = normalized.indexOf("\n", start) + 1;
    }
  }
  counts[lineCount + 1] = counts[lineCount]!;
  return counts;
}

/** The number of lines of `normalized` (no "\r"). */
function countLines(normalized: string) {
  let count = 1;
  for (let i = normalized.indexOf("\n"); i >= 0; i = normalized.indexOf("\n", i + 1)) count++;
  return count;
}

export function checkPrd(text: string, options: CheckOptions = {}): PrdCheck {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const budget = options.budgetMs ?? BUDGET_MS;
  let partial = false;
  let ticks = 0;
  /** Whether the budget ran out; looks at the clock every 256 steps. */
  const over = () => {
    if (partial) return true;
    if (++ticks % 256 === 0 && now() - started > budget) partial = true;
    return partial;
  };

  const normalized = text.replace(/\r\n?/g, "\n");
  const lineCount = countLines(normalized);
  const doc = readDoc(text);
  const issues = new IssueList(Math.max(0, Math.floor(options.maxIssues ?? MAX_ISSUES)));
  const sectionOf = sectionTable(doc, lineCount);
  const titled = doc.sections.filter((s) => s.title);

  // Sections: expected, present, missing, empty.
  const byKeyword = !options.sections?.length;
  const expected = byKeyword ? DEFAULT_OUTLINE.map((o) => o.name) : [...new Set(options.sections!.map((s) => s.trim()).filter(Boolean))];
  const present = presentSections(
    titled.map((s) => s.title),
    expected,
    byKeyword,
  );
  const presentSet = new Set(present);
  const missing = expected.filter((e) => !presentSet.has(e));
  for (const name of missing) issues.add("missing_section", null, name, null, `The “${name}” section is missing.`);
  const fenced = fencedCounts(normalized, lineCount);
  const emptyTitles = new Set<string | null>();
  titled.forEach((s, i) => {
    if (over()) return;
    const end = Math.min(titled[i + 1]?.line ?? lineCount + 1, lineCount + 1);
    const hasCode = fenced[end - 1]! - fenced[s.line]! > 0;
    const real = s.lines.some((l) => l.text.trim() && !HEADING.test(l.text) && !isPlaceholder(l.text));
    if (real || hasCode) return;
    emptyTitles.add(s.title);
    issues.add("empty_section", s.line, s.title, `## ${s.title}`, `The “${s.title}” section has no content yet.`);
  });

  // Goals without a number.
  let goals = 0;
  let goalsWithNumbers = 0;
  for (const s of titled) {
    if (over()) break;
    if (!isGoalSection(s.title)) continue;
    for (const unit of goalUnits(s)) {
      goals++;
      if (/\d/.test(unit.text)) goalsWithNumbers++;
      else
        issues.add(
          "goal_without_number",
          unit.line,
          s.title,
          unit.text,
          "This goal states no number: add a target (a figure, a percentage or a date) to make it measurable.",
        );
    }
  }

  // Line by line outside code: open TODOs, vague words, placeholders, user stories.
  let vagueWords = 0;
  let todos = 0;
  let placeholders = 0;
  let stories = 0;
  let storiesWithAcceptance = 0;
  let checkedLines = 0;
  const lines = doc.lines;
  const proseOf: (string | undefined)[] = new Array(lines.length);
  const proseAt = (i: number) => (proseOf[i] ??= prose(lines[i]!.text));
  const placeholder = (l: DocLine, message: () => string) => {
    const section = sectionOf[l.line] ?? null;
    if (emptyTitles.has(section)) return;
    placeholders++;
    if (issues.count("placeholder", l.line)) issues.keep("placeholder", l.line, section, l.text.trim(), message());
  };
  for (let i = 0; i < lines.length && !over(); i++) {
    const l = lines[i]!;
    checkedLines = l.line;
    const section = sectionOf[l.line] ?? null;
    const withoutCode = l.text.includes("`") ? l.text.replace(INLINE_CODE, " ") : l.text;
    const todo = todoMarkers(withoutCode);
    if (todo.length) {
      todos += todo.length;
      if (issues.count("open_todo", l.line)) {
        const message = `Open marker ${[...new Set(todo)].map((t) => `“${t}”`).join(", ")}: resolve it or move it to Open Questions.`;
        issues.keep("open_todo", l.line, section, l.text.trim(), message);
      }
    }
    if (HEADING.test(l.text)) continue;
    const plain = proseAt(i);
    const found = plain.match(VAGUE);
    if (found) {
      vagueWords += found.length;
      if (issues.count("vague_word", l.line)) {
        const unique = [...new Set(found.map((w) => w.toLowerCase()))];
        const message = `Vague wording (${unique.map((w) => `“${w}”`).join(", ")}): say exactly what, how much or how fast.`;
        issues.keep("vague_word", l.line, section, l.text.trim(), message);
      }
    }

    // Placeholders standing in for content: "Mitigation: to be agreed", an open question written
    // into a section other than the questions, a table without rows. Lines of a section already
    // reported empty are not counted twice.
    const phrase = placeholderPhrase(withoutCode);
    if (phrase) {
      placeholder(l, () => `Placeholder “${phrase}”: write what was decided, or move the question to Open Questions.`);
    } else if (OPEN_QUESTION.test(plain) && !QUESTIONS_TITLE.test(section ?? "")) {
      placeholder(l, () => `An open question inside “${section ?? "the introduction"}”: answer it here, or move it to Open Questions.`);
    }
    const next = lines[i + 1];
    const after = lines[i + 2];
    if (next && next.line === l.line + 1 && TABLE_ROW.test(l.text) && TABLE_SEPARATOR.test(next.text) && next.text.includes("-")) {
      const hasRow = after && after.line === next.line + 1 && /^\s*\|/.test(after.text) && !TABLE_SEPARATOR.test(after.text);
      if (!hasRow) placeholder(l, () => "This table has a header but no rows: fill it in or remove it.");
    }

    // A user story without acceptance criteria (before the next story or heading).
    if (!STORY.test(plain)) continue;
    stories++;
    let accepted = hasGivenThen(l.text);
    for (let j = i + 1; j < lines.length && !accepted && !over(); j++) {
      const text = lines[j]!.text;
      if (HEADING.test(text) && !/acceptance/i.test(text)) break;
      if (STORY.test(proseAt(j))) break;
      if (ACCEPTANCE.test(prose(text.replace(ITEM_MARKER, "")))) accepted = true;
    }
    if (accepted) storiesWithAcceptance++;
    else if (issues.count("story_without_acceptance", l.line)) {
      const message = "This user story has no acceptance criteria: add Given/When/Then lines or an “Acceptance criteria” list under it.";
      issues.keep("story_without_acceptance", l.line, section, l.text.trim(), message);
    }
  }

  const returned = issues.sorted();
  return {
    issues: returned,
    counts: issues.counts,
    totalIssues: issues.total,
    truncated: issues.total > returned.length,
    partial,
    checkedLines: partial ? checkedLines : lineCount,
    sections: { expected, present, missing },
    stats: {
      words: countWords(doc.plain),
      sections: titled.length,
      listItems: doc.sections.reduce((n, s) => n + s.items.length, 0),
      goals,
      goalsWithNumbers,
      stories,
      storiesWithAcceptance,
      todos,
      vagueWords,
      placeholders,
    },
  };
}

/** `words(text).length` (md-doc.ts) without making the list: runs of [a-z0-9'-] from a letter or digit, lower-cased. */
export function countWords(text: string) {
  const t = text.toLowerCase();
  const alnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  let count = 0;
  for (let i = 0; i < t.length; i++) {
    if (!alnum(t.charCodeAt(i))) continue;
    count++;
    for (let c = t.charCodeAt(i + 1); alnum(c) || c === 39 || c === 45; c = t.charCodeAt(i + 1)) i++;
  }
  return count;
}
