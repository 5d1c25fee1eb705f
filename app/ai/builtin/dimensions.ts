import { sectionUnits } from "~/prd-rules/rules";
import type { Dimension } from "../schemas";
import type { Analysis } from "./analysis";
import type { DocSection } from "~/utils/md-doc";

/**
 * The six dimension scores (0–100) of an analysed PRD, each with the
 * sentence of counts it is based on, and their weights in the overall score.
 */

export interface DimensionMeasure {
  score: number;
  /** One sentence citing the counts behind the score. */
  evidence: string;
}

export const WEIGHTS: Record<Dimension, number> = {
  clarity: 0.2,
  completeness: 0.2,
  userFocus: 0.15,
  technicalFeasibility: 0.15,
  metrics: 0.15,
  riskAssessment: 0.15,
};

export const TECH_AREAS: [string, RegExp][] = [
  ["architecture", /\b(architecture|components?|services?|microservices?|backend|back-end|frontend|front-end|server|infrastructure|deploy\w*)\b/i],
  ["API and integrations", /\b(apis?|endpoints?|rest|graphql|webhooks?|sdk|integrat\w+)\b/i],
  ["data", /\b(data model|database|schema|storage|migrations?|sql|tables?|cache|caching|retention|records?)\b/i],
  ["performance", /\b(latency|throughput|performance|response times?|p9\d|load times?|concurren\w+|\d+\s?ms)\b/i],
  ["security", /\b(security|secure|auth\w*|encrypt\w*|permissions?|privacy|gdpr|compliance|sso|rbac|pii)\b/i],
  ["dependencies", /\b(dependenc\w+|third[- ]party|vendors?|librar(?:y|ies)|depends on|upstream|providers?)\b/i],
  [
    "non-functional requirements",
    /\b(non[- ]functional|availability|uptime|reliab\w+|sla|slo|accessibility|wcag|scalab\w+|monitoring|observability|backups?)\b/i,
  ],
];

export const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)));
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const nonEmpty = (s: DocSection | undefined) => !!s && sectionUnits(s).length > 0;

export function measure(a: Omit<Analysis, "dimensions" | "overall">): Record<Dimension, DimensionMeasure> {
  const per100 = a.words ? (a.vagueWords / a.words) * 100 : 0;
  const storiesWithout = a.stories - a.storiesWithAcceptance;
  const clarity = a.words
    ? 100 -
      Math.min(35, per100 * 8) -
      Math.min(20, a.todos * 4) -
      Math.min(24, a.placeholders * 6) -
      Math.min(20, a.sentences ? (a.longSentences / a.sentences) * 50 : 0) -
      (a.sections < 3 ? (3 - a.sections) * 8 : 0) -
      (a.words < 200 ? 20 * (1 - a.words / 200) : 0) -
      Math.min(10, storiesWithout * 2)
    : 0;

  const presentEmpty = a.present.filter((p) => a.emptySections.some((e) => e.toLowerCase() === p.toLowerCase())).length;
  // A heading with nothing under it is not coverage.
  const coverage = a.expected.length ? (a.present.length - presentEmpty) / a.expected.length : 0;
  // A placeholder is a part of the document that is not written yet.
  // Sections of the document's own outline left empty are unwritten too, expected or not.
  const emptyOther = a.emptySections.length - presentEmpty;
  const completeness = a.words
    ? coverage * 80 + Math.min(1, a.words / 800) * 20 - Math.min(15, a.todos * 3) - Math.min(30, a.placeholders * 5) - Math.min(24, emptyOther * 8)
    : 0;

  const userFocus =
    (nonEmpty(a.userSection) ? 25 : 0) +
    Math.min(15, a.personas.length * 5) +
    Math.min(25, a.userMentions * 2.5) +
    Math.min(15, a.stories * 5) +
    Math.min(10, a.soThat * 5) +
    (a.present.some((p) => /problem/i.test(p)) || /\b(pain|problem|struggle|frustrat\w*)\b/i.test(a.doc.plain) ? 10 : 0);

  const techNumbers = a.doc.lines.filter((l) => /\d/.test(l.text) && TECH_AREAS.some(([, re]) => re.test(l.text))).length;
  const technicalFeasibility =
    (a.techAreas.length / TECH_AREAS.length) * 50 +
    (nonEmpty(a.techSection) ? 20 : 0) +
    Math.min(20, a.requirements.length * 4) +
    Math.min(10, techNumbers * 5);

  const metrics =
    (a.goals.length ? 15 : 0) +
    (a.goals.length ? (a.goalsWithNumbers / a.goals.length) * 50 : 0) +
    Math.min(20, a.numericLines * 2) +
    Math.min(15, a.targetTerms * 5);

  const riskAssessment =
    (a.risks.length ? 25 : 0) +
    Math.min(25, a.risks.length * 8) +
    (a.risks.length ? (a.risksWithMitigation / a.risks.length) * 30 : 0) +
    (a.openQuestions.length ? 10 : 0) +
    (a.assumptions ? 10 : 0);

  const missingNote = a.missing.length ? ` (missing: ${a.missing.join(", ")})` : "";
  const emptyNote = a.emptySections.length ? `; ${plural(a.emptySections.length, "section")} empty (${a.emptySections.join(", ")})` : "";
  return {
    clarity: {
      score: clamp(clarity),
      evidence: a.words
        ? `${plural(a.vagueWords, "vague word")} (${per100.toFixed(1)} per 100 words), ${plural(a.todos, "open TODO marker")}, ${plural(
            a.placeholders,
            "placeholder",
          )} and ${a.longSentences} of ${plural(a.sentences, "sentence")} over 30 words, across ${plural(a.words, "word")} in ${plural(a.sections, "section")}.`
        : "The document is empty, so there is nothing to read yet.",
    },
    completeness: {
      score: clamp(completeness),
      evidence: `${a.present.length} of ${a.expected.length} expected sections present${missingNote}${emptyNote}; ${plural(
        a.placeholders,
        "placeholder",
      )} still to write; ${plural(a.words, "word")} in total.`,
    },
    userFocus: {
      score: clamp(userFocus),
      evidence: `${
        a.userSection ? `“${a.userSection.title}” section with ${plural(a.personas.length, "named user group")}` : "No target-users section"
      }; ${plural(a.userMentions, "mention")} of users or customers; ${plural(a.stories, "user story", "user stories")}, ${plural(
        a.soThat,
        "“so that”",
        "“so that”s",
      )}.`,
    },
    technicalFeasibility: {
      score: clamp(technicalFeasibility),
      evidence: `Covers ${a.techAreas.length} of ${TECH_AREAS.length} technical areas${
        a.techAreas.length ? ` (${a.techAreas.join(", ")})` : ""
      }; ${a.techSection ? `technical section “${a.techSection.title}”` : "no technical section"}; ${plural(a.requirements.length, "requirement")} listed.`,
    },
    metrics: {
      score: clamp(metrics),
      evidence: a.goals.length
        ? `${a.goalsWithNumbers} of ${plural(a.goals.length, "goal")} state a number; ${plural(a.numericLines, "line")} ${
            a.numericLines === 1 ? "gives" : "give"
          } figures; ${plural(a.targetTerms, "baseline/target/timeframe term")}.`
        : `No goals or success metrics listed; ${plural(a.numericLines, "line")} ${a.numericLines === 1 ? "gives" : "give"} figures.`,
    },
    riskAssessment: {
      score: clamp(riskAssessment),
      evidence: a.risks.length
        ? `${plural(a.risks.length, "risk")} listed, ${a.risksWithMitigation} with a mitigation; ${plural(
            a.openQuestions.length,
            "open question",
          )}; assumptions or dependencies ${a.assumptions ? "named" : "not named"}.`
        : `No risks listed; ${plural(a.openQuestions.length, "open question")}; assumptions or dependencies ${a.assumptions ? "named" : "not named"}.`,
    },
  };
}
