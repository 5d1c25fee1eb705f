// The PRD check as it was before issue 33 (quadratic, with backtracking patterns), frozen
// unchanged as the oracle that tests/unit/prd-check-speed.test.ts compares the new check with.

import { type Doc, type DocSection, readDoc, shorten, words } from "./md-doc";
import {
  ACCEPTANCE,
  DEFAULT_OUTLINE,
  HEADING,
  STORY,
  VAGUE,
  goalUnits,
  isGoalSection,
  isPlaceholder,
  matchesExpected,
  placeholderPhrase,
  prose,
  QUESTIONS_TITLE,
  TABLE_SEPARATOR,
  todoMarkers,
} from "./rules";

/**
 * The rule-based PRD check: instant, offline, deterministic. Measures the
 * document against its expected sections (a template's, or a standard
 * outline) and a few writing rules, and reports each issue with its H2
 * section and 1-based line. Fenced code and inline code are never checked.
 */

export type CheckRule = "missing_section" | "empty_section" | "goal_without_number" | "vague_word" | "story_without_acceptance" | "open_todo" | "placeholder";
export type Severity = "high" | "medium" | "low";

export interface CheckIssue {
  id: string;
  rule: CheckRule;
  severity: Severity;
  section: string | null;
  line: number | null;
  message: string;
  excerpt: string | null;
}

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
  issues: CheckIssue[];
  counts: Record<Severity, number>;
  sections: { expected: string[]; present: string[]; missing: string[] };
  stats: CheckStats;
}

export const SEVERITY: Record<CheckRule, Severity> = {
  missing_section: "high",
  empty_section: "medium",
  goal_without_number: "medium",
  story_without_acceptance: "medium",
  placeholder: "medium",
  vague_word: "low",
  open_todo: "low",
};
const RULE_ORDER: CheckRule[] = Object.keys(SEVERITY) as CheckRule[];
const SEVERITY_RANK: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

function hash(text: string) {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = ((h << 5) + h + text.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

/** The H2 section that contains a line (null for the preamble). */
function sectionAt(doc: Doc, line: number) {
  let found: DocSection | undefined;
  for (const s of doc.sections) if (s.title && s.line <= line) found = s;
  return found?.title ?? null;
}

export function checkPrd(text: string, options: { sections?: string[] } = {}): PrdCheck {
  const doc = readDoc(text);
  const issues: CheckIssue[] = [];
  const add = (rule: CheckRule, line: number | null, section: string | null, message: string, excerpt: string | null) =>
    issues.push({
      id: `${rule}-${line ?? 0}-${hash(`${section ?? ""}|${excerpt ?? message}`)}`,
      rule,
      severity: SEVERITY[rule],
      section,
      line,
      message,
      excerpt: excerpt === null ? null : shorten(excerpt, 120),
    });
  const titled = doc.sections.filter((s) => s.title);

  // Sections: expected, present, missing, empty.
  const byKeyword = !options.sections?.length;
  const expected = byKeyword ? DEFAULT_OUTLINE.map((o) => o.name) : [...new Set(options.sections!.map((s) => s.trim()).filter(Boolean))];
  const present = expected.filter((e) => titled.some((s) => matchesExpected(s.title, e, byKeyword)));
  const missing = expected.filter((e) => !present.includes(e));
  for (const name of missing) add("missing_section", null, name, `The “${name}” section is missing.`, null);
  const fenced = fencedLines(text);
  titled.forEach((s, i) => {
    const end = titled[i + 1]?.line ?? Number.POSITIVE_INFINITY;
    const hasCode = fenced.some((l) => l > s.line && l < end);
    const real = s.lines.some((l) => l.text.trim() && !HEADING.test(l.text) && !isPlaceholder(l.text));
    if (!real && !hasCode) add("empty_section", s.line, s.title, `The “${s.title}” section has no content yet.`, `## ${s.title}`);
  });

  // Goals without a number.
  let goals = 0;
  let goalsWithNumbers = 0;
  for (const s of titled.filter((s) => isGoalSection(s.title))) {
    for (const unit of goalUnits(s)) {
      goals++;
      if (/\d/.test(unit.text)) goalsWithNumbers++;
      else
        add(
          "goal_without_number",
          unit.line,
          s.title,
          "This goal states no number: add a target (a figure, a percentage or a date) to make it measurable.",
          unit.text,
        );
    }
  }

  // Vague words and open TODOs, line by line outside code.
  let vagueWords = 0;
  let todos = 0;
  for (const l of doc.lines) {
    const raw = l.text.replace(/`[^`]*`/g, " ");
    const todo = todoMarkers(raw);
    if (todo.length) {
      todos += todo.length;
      add(
        "open_todo",
        l.line,
        sectionAt(doc, l.line),
        `Open marker ${[...new Set(todo)].map((t) => `“${t}”`).join(", ")}: resolve it or move it to Open Questions.`,
        l.text.trim(),
      );
    }
    if (HEADING.test(l.text)) continue;
    const found = prose(raw).match(VAGUE);
    if (found) {
      vagueWords += found.length;
      const unique = [...new Set(found.map((w) => w.toLowerCase()))];
      add(
        "vague_word",
        l.line,
        sectionAt(doc, l.line),
        `Vague wording (${unique.map((w) => `“${w}”`).join(", ")}): say exactly what, how much or how fast.`,
        l.text.trim(),
      );
    }
  }

  // Placeholders standing in for content: "Mitigation: to be agreed", an open
  // question written into a section other than the questions, a table without rows.
  // Lines of a section already reported empty are not counted twice.
  const emptyTitles = new Set(issues.filter((i) => i.rule === "empty_section").map((i) => i.section));
  let placeholders = 0;
  const placeholder = (line: number, message: string, excerpt: string) => {
    const section = sectionAt(doc, line);
    if (emptyTitles.has(section)) return;
    placeholders++;
    add("placeholder", line, section, message, excerpt);
  };
  doc.lines.forEach((l, i) => {
    if (HEADING.test(l.text)) return;
    const raw = l.text.replace(/`[^`]*`/g, " ");
    const section = sectionAt(doc, l.line);
    const phrase = placeholderPhrase(raw);
    if (phrase) {
      placeholder(l.line, `Placeholder “${phrase}”: write what was decided, or move the question to Open Questions.`, l.text.trim());
    } else if (/^\s*(?:[-*+]|\d+[.)])?\s*open question\b/i.test(prose(raw)) && !QUESTIONS_TITLE.test(section ?? "")) {
      placeholder(l.line, `An open question inside “${section ?? "the introduction"}”: answer it here, or move it to Open Questions.`, l.text.trim());
    }
    // A table whose header and separator have no row under them.
    const next = doc.lines[i + 1];
    const after = doc.lines[i + 2];
    if (/^\s*\|.*\|\s*$/.test(l.text) && next && next.line === l.line + 1 && TABLE_SEPARATOR.test(next.text) && next.text.includes("-")) {
      const hasRow = after && after.line === next.line + 1 && /^\s*\|/.test(after.text) && !TABLE_SEPARATOR.test(after.text);
      if (!hasRow) placeholder(l.line, "This table has a header but no rows: fill it in or remove it.", l.text.trim());
    }
  });

  // User stories without acceptance criteria (before the next story or heading).
  let stories = 0;
  let storiesWithAcceptance = 0;
  const lines = doc.lines;
  lines.forEach((l, i) => {
    if (HEADING.test(l.text) || !STORY.test(prose(l.text))) return;
    stories++;
    let accepted = /acceptance criteria|\bgiven\b.*\bthen\b/i.test(l.text);
    for (let j = i + 1; j < lines.length && !accepted; j++) {
      const next = lines[j]!.text;
      if (HEADING.test(next) && !/acceptance/i.test(next)) break;
      if (STORY.test(prose(next))) break;
      if (ACCEPTANCE.test(prose(next.replace(/^\s*(?:[-*+]|\d+[.)]|>|#{1,6})\s+(?:\[[ xX]\]\s+)?/, "")))) accepted = true;
    }
    if (accepted) storiesWithAcceptance++;
    else
      add(
        "story_without_acceptance",
        l.line,
        sectionAt(doc, l.line),
        "This user story has no acceptance criteria: add Given/When/Then lines or an “Acceptance criteria” list under it.",
        l.text.trim(),
      );
  });

  issues.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (a.line ?? 0) - (b.line ?? 0) ||
      RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule) ||
      a.id.localeCompare(b.id),
  );
  const counts = { high: 0, medium: 0, low: 0 };
  for (const issue of issues) counts[issue.severity]++;
  return {
    issues,
    counts,
    sections: { expected, present, missing },
    stats: {
      words: words(doc.plain).length,
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

/** 1-based line numbers inside (and of) fenced code blocks. */
function fencedLines(text: string) {
  const out: number[] = [];
  let open = false;
  text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .forEach((t, i) => {
      const fence = /^\s*(```|~~~)/.test(t);
      if (fence || open) out.push(i + 1);
      if (fence) open = !open;
    });
  return out;
}
