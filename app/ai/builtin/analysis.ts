import { isPersonaLabelLine, namedPersonas } from "./personas";
import { isPlaceholder, placeholderPhrase, QUESTIONS_TITLE, STORY, type Unit, goalUnits, isGoalSection, isNonGoal, sectionUnits } from "~/prd-rules/rules";
import { checkPrd, type CheckIssue, type PrdCheck } from "~/prd-rules/check";
import { DIMENSION_LABELS, DIMENSIONS, type Dimension } from "../schemas";
import { type DimensionMeasure, TECH_AREAS, WEIGHTS, clamp, measure, plural } from "./dimensions";
import type { BuiltinContext } from "./contract";
import { type Doc, type DocSection, readDoc, shorten, words } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";

/**
 * Measures a PRD for the coach, the score, the suggestions and the roadmap:
 * the rule-based check plus signals on users, technical content, metrics
 * and risks. Every dimension score comes with the counts it is based on, so
 * feedback can cite them ("3 of 5 goals state a number").
 */

export interface Analysis {
  title: string;
  doc: Doc;
  check: PrdCheck;
  expected: string[];
  present: string[];
  missing: string[];
  emptySections: string[];
  words: number;
  sections: number;
  sentences: number;
  longSentences: number;
  goals: Unit[];
  goalsWithNumbers: number;
  numericLines: number;
  targetTerms: number;
  stories: number;
  storiesWithAcceptance: number;
  soThat: number;
  vagueWords: number;
  todos: number;
  /** Lines standing in for content ("to be agreed", an open question inside Requirements, an empty table). */
  placeholders: number;
  userSection: DocSection | undefined;
  personas: string[];
  userMentions: number;
  techAreas: string[];
  techMissing: string[];
  techSection: DocSection | undefined;
  requirements: Requirement[];
  riskSection: DocSection | undefined;
  risks: Unit[];
  risksWithMitigation: number;
  openQuestions: Unit[];
  assumptions: boolean;
  dimensions: Record<Dimension, DimensionMeasure>;
  overall: number;
}

/** A requirement: a unit of a requirement-like section (acceptance criteria excluded), with the sub-heading it sits under. */
export interface Requirement extends Unit {
  section: string;
  subheading: string | null;
}

const USER_WORDS = /\b(users?|customers?|personas?|buyers?|admins?|administrators?|operators?|members?|visitors?|shoppers?|clients?|end[- ]users?)\b/gi;
const MITIGATION =
  /\b(mitigat\w*|fallback|contingenc\w*|plan|monitor\w*|roll ?back|reduc\w*|limit\w*|avoid\w*|prevent\w*|feature flags?|pilot\w*|test\w*|review\w*|we will|address\w*|workaround)\b|->|→/i;
const TARGET = /\b(baseline|target|from \d|to \d|within|by (?:q[1-4]|\d|end of|the end)|per (?:day|week|month|user|session)|p\d\d|%)|(?<!\d)\d+\s?%/gi;

const sectionsWhere = (doc: Doc, test: (title: string) => boolean) => doc.sections.filter((s) => s.title && test(s.title.toLowerCase()));

/** A requirement's text without its priority label ("Must:", "[P1]", "(Should have) -"). */
export const stripPriority = (text: string) =>
  text
    .trimStart()
    .replace(/^\s*(?:\[|\()?\s*(?:must|should|could|won'?t)(?:[- ]haves?)?\s*(?:\]|\))?\s*[:\-–—]\s*|^\s*(?:\[|\()?p[0-3](?:\]|\))?\s*[:\-–—]?\s*/i, "")
    .trim() || text;

/** A requirement without its id ("FR-1", "REQ-12 (priority to confirm):") or a trailing provenance note ("(from: …)"). */
export const stripRequirementId = (text: string) =>
  text
    .replace(/^\s*(?:[A-Z]{1,4}-?\d+(?:\.\d+)?)\b\s*(?:\([^)]{0,40}\))?\s*[:.\-–—]?\s*/, "")
    .replace(/(?<!\s)\s*_?\((?:from|source)\s*:[^)]*\)_?\s*$/i, "")
    .trim() || text;

/** Requirement-like sections: requirements, features, stories, capabilities, solution, MVP, in-scope. */
export const isRequirementTitle = (t: string) =>
  !isNonGoal(t) && /\b(requirements?|features?|functional|user stories|stories|capabilit\w*|solution|mvp|in scope|functionality)\b/i.test(t);

function personasOf(section: DocSection | undefined) {
  if (!section) return [];
  // "Primary: front-desk receptionists. Secondary: …": the people named, not the labels.
  const units = sectionUnits(section).filter((u) => !/^roles named\b/i.test(u.text.replace(/\*/g, "")));
  if (units.some((u) => isPersonaLabelLine(u.text)))
    return namedPersonas(units.map((u) => u.text))
      .map((p) => p.name)
      .slice(0, 6);
  const names = sectionUnits(section).map((u) => {
    const head = /^(?:persona\s*\d*\s*[:—-]\s*)?([^:;—–(]{2,60}?)\s*(?:[:;—–(]|\s-\s)/i.exec(u.text)?.[1];
    return shorten(head && words(head).length <= 5 ? head : u.text, 48);
  });
  return [...new Set(names)].slice(0, 6);
}

const HEADING = /^\s*#{1,6}\s/;
const stripMarker = (t: string) =>
  t
    .replace(/^\s*(?:[-*+]|\d+[.)]|>)\s+(?:\[[ xX]\]\s+)?/, "")
    .replace(/^[*_]+/, "")
    .trim();

/** Requirement units of a section, without acceptance-criteria lines (Given/When/Then, lists under "Acceptance criteria"). */
function requirementsOf(section: DocSection): Requirement[] {
  const excluded = new Set<number>();
  let inAcceptance = false;
  for (const l of section.lines) {
    const t = stripMarker(l.text);
    if (!t) continue;
    if (HEADING.test(l.text)) inAcceptance = /acceptance/i.test(l.text);
    else if (STORY.test(t)) inAcceptance = false;
    else if (/^acceptance\b|acceptance criteria/i.test(t)) {
      inAcceptance = true;
      excluded.add(l.line);
    } else if (inAcceptance || /^(?:given|when|then|and)\b/i.test(t)) excluded.add(l.line);
  }
  return sectionUnits(section)
    .filter((u) => !excluded.has(u.line))
    .map((u) => ({
      ...u,
      text: stripRequirementId(u.text),
      section: section.title,
      subheading: section.subheadings.filter((h) => h.line < u.line).at(-1)?.text ?? null,
    }));
}

function risksOf(doc: Doc) {
  const sections = sectionsWhere(doc, (t) => /\b(risks?|mitigations?|threats?)\b/.test(t));
  const units = sections.flatMap((s) => sectionUnits(s)).filter((u) => !/^\|?\s*risk\s*\|/i.test(u.text));
  // "Mitigation: to be agreed" names a mitigation nobody has written: not one.
  const mitigated = units.filter((u) => !placeholderPhrase(u.text) && (MITIGATION.test(u.text) || u.text.split("|").filter((c) => c.trim()).length >= 2));
  return { section: sections[0], units, mitigated: mitigated.length };
}

/**
 * Stories that quote their source requirement ("_Source:_ “…”"), when every
 * source is itself listed as a requirement, are the same work twice: the
 * requirements stand for them.
 */
function withoutSourcedStories(requirements: Requirement[], lines: string[]) {
  const sources = lines.map((l) => /_Source:_\s*“(.+?)”/.exec(l)?.[1]?.trim()).filter((x): x is string => Boolean(x));
  const plain = requirements.filter((r) => !STORY.test(r.text));
  if (!sources.length || plain.length === requirements.length) return requirements;
  return sources.every((src) => plain.some((p) => p.text.includes(src.replace(/…$/, "")))) ? plain : requirements;
}

export function analyze(text: string, ctx: BuiltinContext): Analysis {
  const full = readDoc(text);
  // Open questions and bare labels say what is missing; they are not content to measure.
  const doc = {
    ...full,
    plain: full.plain
      .split("\n")
      .filter((line) => !isPlaceholder(line))
      .join("\n"),
  };
  const check = checkPrd(text, {
    sections: ctx.template?.sections?.length ? ctx.template.sections : undefined,
  });
  const stats = check.stats;
  const titled = doc.sections.filter((s) => s.title);
  const emptySections = check.issues.filter((i) => i.rule === "empty_section").map((i) => i.section!);
  const allSentences = sentences(doc.plain);
  const longSentences = allSentences.filter((s) => words(s).length > 30).length;
  const goals = titled.filter((s) => isGoalSection(s.title)).flatMap(goalUnits);
  const bodyLines = doc.lines.filter((l) => !/^\s*#{1,6}\s/.test(l.text)).map((l) => l.text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ""));
  const numericLines = bodyLines.filter((t) => /\d/.test(t)).length;
  const targetTerms = (doc.plain.match(TARGET) ?? []).length;
  const userSection = sectionsWhere(doc, (t) => !/user stor/.test(t) && /\b(users?|personas?|audience|customers?|segments?)\b/.test(t))[0];
  const personas = personasOf(userSection);
  const userMentions = (doc.plain.match(USER_WORDS) ?? []).length;
  const soThat = (doc.plain.match(/\bso that\b/gi) ?? []).length;
  const techAreas = TECH_AREAS.filter(([, re]) => re.test(doc.plain)).map(([name]) => name);
  const techMissing = TECH_AREAS.map(([name]) => name).filter((n) => !techAreas.includes(n));
  const techSection = sectionsWhere(doc, (t) =>
    /\b(technical|technology|architecture|implementation|engineering|non functional|non-functional|nfrs?|constraints|dependencies|system design|integrations?)\b/.test(
      t,
    ),
  )[0];
  const requirements = withoutSourcedStories(
    titled.filter((s) => isRequirementTitle(s.title)).flatMap(requirementsOf),
    doc.lines.map((l) => l.text),
  );
  const risk = risksOf(doc);
  const openQuestions = sectionsWhere(doc, (t) => QUESTIONS_TITLE.test(t)).flatMap((s) => sectionUnits(s));
  const assumptions = /\b(assumptions?|assume[sd]?|dependenc\w+|constraints?)\b/i.test(doc.plain);

  const a = {
    title: doc.title || ctx.projectName || "Untitled PRD",
    doc,
    check,
    expected: check.sections.expected,
    present: check.sections.present,
    missing: check.sections.missing,
    emptySections,
    words: stats.words,
    sections: stats.sections,
    sentences: allSentences.length,
    longSentences,
    goals,
    goalsWithNumbers: goals.filter((g) => /\d/.test(g.text)).length,
    numericLines,
    targetTerms,
    stories: stats.stories,
    storiesWithAcceptance: stats.storiesWithAcceptance,
    soThat,
    vagueWords: stats.vagueWords,
    todos: stats.todos,
    placeholders: stats.placeholders,
    userSection,
    personas,
    userMentions,
    techAreas,
    techMissing,
    techSection,
    requirements,
    riskSection: risk.section,
    risks: risk.units,
    risksWithMitigation: risk.mitigated,
    openQuestions,
    assumptions,
  };
  const dimensions = measure(a);
  // Every defect the check marks costs points, as a reviewer's red pen does (calibrated on
  // tests/fixtures/calibration: 3 per medium issue, 1 per low one, at most 20; missing
  // sections, the high ones, already weigh on completeness).
  const c = check.counts;
  const overall = clamp(DIMENSIONS.reduce((sum, d) => sum + dimensions[d].score * WEIGHTS[d], 0) - defectPoints(c));
  return { ...a, dimensions, overall };
}

/** What the check's issues take off the overall score. */
export const defectPoints = (counts: { medium: number; low: number }) => Math.min(20, counts.medium * 3 + counts.low);

/** Dimensions from strongest to weakest (ties in DIMENSIONS order). */
export function ranked(a: Analysis) {
  return [...DIMENSIONS].sort((x, y) => a.dimensions[y].score - a.dimensions[x].score || DIMENSIONS.indexOf(x) - DIMENSIONS.indexOf(y));
}

export const label = (d: Dimension) => DIMENSION_LABELS[d];

/** Issues of one rule, in check order. */
export const issuesOf = (a: Analysis, rule: CheckIssue["rule"]) => a.check.issues.filter((i) => i.rule === rule);

/** "lines 4, 7 and 9" (at most `max` shown). */
export function lineList(issues: { line: number | null }[], max = 4) {
  const lines = [...new Set(issues.map((i) => i.line).filter((l): l is number => l !== null))];
  if (!lines.length) return "";
  const shown = lines.slice(0, max);
  const rest = lines.length - shown.length;
  const list = shown.length === 1 ? `${shown[0]}` : `${shown.slice(0, -1).join(", ")}${rest ? `, ${shown.at(-1)}` : ` and ${shown.at(-1)}`}`;
  return `line${lines.length === 1 ? "" : "s"} ${list}${rest ? ` and ${rest} more` : ""}`;
}

export { plural, TECH_AREAS, WEIGHTS };
export type { DimensionMeasure };
