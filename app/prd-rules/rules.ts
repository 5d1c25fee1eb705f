import { type DocLine, type DocSection, plainInline, sameTitle, sentences, words } from "~/utils/md-doc";
import { listItemOf } from "~/utils/md-scan";
import { afterTodoMarker, bracketTodos, isLabelledPlaceholder, isStory } from "./matchers";

/**
 * The building blocks of the PRD check, shared with the offline drafter's
 * analysis: the standard outline and how titles match it, the vague-word
 * list, TODO and user-story patterns, and how a section splits into units
 * (top-level list items, paragraph lines, goals).
 *
 * app/prd-rules/ is a layer below both app/ai/ and app/domain/: pure reading
 * of a PRD's Markdown, no database, no server imports (docs/code-tour.md).
 * No pattern here is built from the text it reads, and none backtracks:
 * those that would are hand-written matchers (./matchers.ts).
 */

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
/** A heading without a leading "1." / "2)" / "A." numbering. */
const unnumbered = (s: string) => s.replace(/^\s*(?:\d+|[a-z])(?:\.\d+)*[.)]?\s+/i, "");

/** The standard outline used when no template applies, each matched by keyword. */
export const DEFAULT_OUTLINE: {
  name: string;
  match: (title: string) => boolean;
}[] = [
  {
    name: "Problem",
    match: (t) => /\b(problem|background|context|motivation|why)\b/.test(t),
  },
  {
    name: "Goals and Success Metrics",
    match: (t) => !isNonGoal(t) && /\b(goals?|metrics?|success|objectives?|kpis?|okrs?|outcomes?)\b/.test(t),
  },
  {
    name: "Target Users",
    match: (t) => !/user stor/.test(t) && /\b(users?|personas?|audience|customers?|segments?)\b/.test(t),
  },
  {
    name: "Requirements",
    match: (t) => /\b(requirements?|features?|functional|user stories|capabilit\w*|solution)\b/.test(t),
  },
  {
    name: "Scope and Non-Goals",
    match: (t) => /\b(scope|non goals?|out of scope|not doing)\b/.test(t),
  },
  { name: "Risks", match: (t) => /\b(risks?|mitigations?|threats?)\b/.test(t) },
  {
    name: "Open Questions",
    match: (t) => /\b(questions?|open issues?|unknowns?|to be decided)\b/.test(t),
  },
];

/** Some keyword of some rule of DEFAULT_OUTLINE (each rule needs one of its own): most titles are none of them. */
const OUTLINE_WORD =
  /\b(problem|background|context|motivation|why|goals?|metrics?|success|objectives?|kpis?|okrs?|outcomes?|users?|personas?|audience|customers?|segments?|requirements?|features?|functional|user stories|capabilit\w*|solution|scope|non goals?|out of scope|not doing|risks?|mitigations?|threats?|questions?|open issues?|unknowns?|to be decided)\b/;

export const isNonGoal = (title: string) => /\bnon goals?\b|\bout of scope\b/.test(norm(title));
/** Sections whose items are goals or success measures (the words are looked for before the title is normalised). */
export const isGoalSection = (title: string) =>
  /goal|metric|success|objective|kpi|okr/.test(title.toLowerCase()) &&
  !isNonGoal(title) &&
  /\b(goals?|metrics?|success|objectives?|kpis?|okrs?)\b/.test(norm(title));

/** Whether the H2 title `title` satisfies the expected section `expected` (template: by name; default outline: by keyword). */
export function matchesExpected(title: string, expected: string, byKeyword: boolean) {
  if (sameTitle(unnumbered(title), expected) || sameTitle(title, expected)) return true;
  if (!byKeyword) return false;
  const rule = DEFAULT_OUTLINE.find((o) => o.name === expected);
  return rule ? rule.match(norm(unnumbered(title))) : false;
}

/** The expected sections that some title satisfies (as matchesExpected decides), in the expected order: one pass over the titles. */
export function presentSections(titles: string[], expected: string[], byKeyword: boolean) {
  const names = new Set<string>();
  const keys: string[] = [];
  for (const title of titles) {
    const bare = unnumbered(title);
    const key = norm(bare);
    names.add(key);
    if (bare !== title) names.add(norm(title));
    keys.push(key);
  }
  const candidates = byKeyword ? keys.filter((k) => OUTLINE_WORD.test(k)) : [];
  return expected.filter((e) => {
    if (names.has(norm(e))) return true;
    const rule = byKeyword ? DEFAULT_OUTLINE.find((o) => o.name === e) : undefined;
    return rule ? candidates.some((k) => rule.match(k)) : false;
  });
}

export const VAGUE_WORDS = [
  "fast",
  "faster",
  "quick",
  "quickly",
  "easy",
  "easily",
  "easier",
  "simple",
  "simply",
  "intuitive",
  "user-friendly",
  "user friendly",
  "seamless",
  "seamlessly",
  "robust",
  "scalable",
  "flexible",
  "efficient",
  "efficiently",
  "powerful",
  "modern",
  "lightweight",
  "optimal",
  "best-in-class",
  "state-of-the-art",
  "world-class",
  "cutting-edge",
  "significant",
  "significantly",
  "some",
  "many",
  "several",
  "various",
  "numerous",
  "a lot",
  "lots of",
  "as needed",
  "as appropriate",
  "if possible",
  "and so on",
  "etc",
  "and more",
  "better",
  "improved",
]; // prettier-ignore
export const VAGUE = new RegExp(`(?<![\\w-])(${VAGUE_WORDS.map((w) => w.replace(/[-\s]/g, "[-\\s]")).join("|")})(?![\\w-])`, "gi");
const TODO_WORD = /\b(?:TODO|TBD|TBA|FIXME|XXX)\b|\b[Tt]bd\b|\?{3,}/g;
/** TODO, TBD, "???" and bracketed markers ("[insert figure here]", bracketTodos in ./matchers.ts). */
export function todoMarkers(text: string): readonly string[] {
  const marked = text.match(TODO_WORD);
  const bracketed = text.includes("[") ? bracketTodos(text) : NONE;
  return marked ? (bracketed.length ? [...marked, ...bracketed] : marked) : bracketed;
}
const NONE: readonly string[] = Object.freeze([]);
/** "As a patient, I want…", and "As Dan, I want…" for a persona named in the PRD (isStory in ./matchers.ts). */
export const STORY: { test(text: string): boolean } = { test: isStory };
export const ACCEPTANCE = /acceptance criteria|\bacceptance\b\s*:|^\W*(?:ac\s*(?:\d+\s*)?:|given|when|then)\b/i;
export const HEADING = /^\s*#{1,6}\s/;

/**
 * Text standing in for content nobody has written yet: a label
 * whose value is a placeholder ("Mitigation: to be agreed", "Owner: TBC",
 * "| Risk | to be agreed |"), or "priority to confirm". A sentence that only
 * uses the words ("patients need to confirm the slot") is not one.
 */
const PLACEHOLDER_VALUE =
  "(?:to be (?:agreed|confirmed|decided|determined|defined|written|done|added|discussed|clarified)|tbc|to confirm|to decide|to define|unknown|pending|not (?:yet )?(?:decided|defined|known|agreed))";
// A value at the start, after "|", ";", "(" or a label and ":", and ending its cell; "…: to be
// decided with the district." still leaves the decision unwritten (isLabelledPlaceholder in ./matchers.ts).
const PLACEHOLDER_AT = new RegExp(PLACEHOLDER_VALUE, "iy");
const PLACEHOLDER = new RegExp(PLACEHOLDER_VALUE, "i");
const PRIORITY_TO_CONFIRM = /\bpriority\s+(?:is\s+)?(?:to be confirmed|to confirm|tbc|tbd)\b/i;

/** The placeholder phrase a line carries ("to be agreed", "priority to confirm"), or null. */
export function placeholderPhrase(text: string): string | null {
  const t = plainInline(text.replace(/^\s*(?:[-*+]|\d+[.)]|>)\s+(?:\[[ xX]\]\s+)?/, "")).trim();
  const priority = PRIORITY_TO_CONFIRM.exec(t);
  if (priority) return priority[0];
  const labelled = PLACEHOLDER.exec(t);
  if (labelled && isLabelledPlaceholder(t, PLACEHOLDER_AT)) return labelled[0];
  return null;
}

const PLACEHOLDER_LINE =
  /^(?:n\/?a|none( yet)?|\?+|\.\.|…|-|_+|\[[^\]]*\]|<[^>]*>|placeholder|coming soon|to be (?:decided|determined|defined|written|done)|tbd)[\s.:!…-]*$/i;
/** "lorem ipsum…" to the end of the line, then only spaces and punctuation (`lorem ipsum.*[\s.:!…-]*$`). */
const LOREM = /^lorem ipsum[^\n\r\u2028\u2029]*(?:[\n\r\u2028\u2029][\s.:!…-]*)?$/i;

/** A line whose only content is a placeholder or a TODO note. */
export function isPlaceholder(text: string) {
  // A bold label on its own line ("**In scope**") introduces content; it is not content.
  if (/^\s*(?:[-*+]\s+)?(\*\*|__)[^*_]+\1:?\s*$/.test(text)) return true;
  const t = plainInline(text.replace(/^\s*(?:[-*+]|\d+[.)]|>)\s+(?:\[[ xX]\]\s+)?/, "")).trim();
  if (!t) return true;
  const marked = afterTodoMarker(t);
  if (marked !== null) return words(marked).length < 3;
  // An open question marks what the section still lacks (the drafter writes them where nothing was said).
  if (/^open question\b/i.test(t)) return true;
  // Neither pattern has two neighbouring repeats that can match the same characters.
  return PLACEHOLDER_LINE.test(t) || LOREM.test(t);
}

/** Text of a line to search for words: inline code, link targets and markup removed. */
export const prose = (text: string) => plainInline(text.includes("`") ? text.replace(/`[^`]*`/g, " ") : text);

/** A unit of a section: a top-level list item (with its nested lines) or a paragraph line. */
export interface Unit extends DocLine {
  isItem: boolean;
}

/** A Markdown table's separator row ("|---|:-:|"). */
export const TABLE_SEPARATOR = /^[\s:|-]+$/;

/** The title of a section that collects open questions ("Open Questions", "Unknowns", "Open issues"); matched on lower-cased titles too. */
export const QUESTIONS_TITLE = /\b(questions?|unknowns?|open issues?)\b/i;

/** The note a document import ends with (app/domain/uploads/from-document.server.ts): where the text came from, not content. */
const PROVENANCE = /^imported from “[^”]+”\.?$/i;

/** Top-level units of a section: list items at the shallowest indent (children folded in), else paragraph lines. Headings, placeholders and "intro:" lines skipped. */
export function sectionUnits(section: DocSection): Unit[] {
  const units: Unit[] = [];
  const tableHeads = new Set(
    section.lines.filter((l, i) => /^\s*\|/.test(l.text) && TABLE_SEPARATOR.test(section.lines[i + 1]?.text ?? "x")).map((l) => l.line),
  );
  let base = Number.POSITIVE_INFINITY;
  for (const l of section.lines) {
    const item = HEADING.test(l.text) ? null : listItemOf(l.text);
    if (item && item[0].length < base) base = item[0].length;
  }
  if (base === Number.POSITIVE_INFINITY) base = 0;
  let open: Unit | null = null;
  for (const l of section.lines) {
    if (!l.text.trim() || HEADING.test(l.text) || tableHeads.has(l.line)) {
      if (HEADING.test(l.text)) open = null;
      continue;
    }
    const m = listItemOf(l.text);
    if (m && m[0].length <= base) {
      open = { line: l.line, text: prose(m[1]), isItem: true };
      units.push(open);
    } else if (open && (m || /^\s{2,}\S/.test(l.text))) {
      open.text = `${open.text} ${prose(m ? m[1] : l.text)}`;
    } else {
      open = null;
      units.push({ line: l.line, text: prose(l.text), isItem: false });
    }
  }
  return units.filter((u) => u.text && !isPlaceholder(u.text) && !PROVENANCE.test(u.text) && !/:\s*$/.test(u.text) && !TABLE_SEPARATOR.test(u.text));
}

/** Goals of a goal section: its list items (with nested lines) and table rows, and each sentence of its paragraphs. */
export function goalUnits(section: DocSection): Unit[] {
  return sectionUnits(section).flatMap((u) =>
    u.isItem || u.text.includes("|") ? [u] : sentences(u.text).map((text) => ({ line: u.line, text, isItem: false })),
  );
}
