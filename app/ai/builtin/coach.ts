import { DIMENSIONS, type Dimension, type Review } from "../schemas";
import { type Analysis, analyze, issuesOf, label, lineList, plural, ranked } from "./analysis";
import type { BuiltinContext } from "./contract";
import { shorten } from "~/utils/md-doc";

/**
 * The coach review: the six dimension scores of `analyze`, a summary and
 * strengths citing the measured facts, improvements built from the check's
 * issues (with their sections and lines), and recommendations for the
 * weakest dimensions.
 */
export function coach(input: { prdContent: string }, ctx: BuiltinContext): Review {
  const a = analyze(input.prdContent, ctx);
  const order = ranked(a);
  const dimensions = Object.fromEntries(DIMENSIONS.map((d) => [d, a.dimensions[d].score])) as Record<Dimension, number>;
  return {
    overallScore: a.overall,
    executiveSummary: summary(a, order),
    dimensions,
    strengths: strengths(a, order),
    improvements: improvements(a, ctx),
    missingSections: a.missing,
    recommendations: recommendations(a, order),
  };
}

function summary(a: Analysis, order: Dimension[]) {
  if (!a.words) return `“${a.title}” is empty: it scores ${a.overall}/100. Start with the ${a.expected.length} expected sections (${a.expected.join(", ")}).`;
  const best = order[0]!;
  const worst = order.at(-1)!;
  const c = a.check.counts;
  return [
    `“${a.title}” scores ${a.overall}/100 over ${plural(a.words, "word")} in ${plural(a.sections, "section")}.`,
    `It has ${a.present.length} of ${a.expected.length} expected sections${
      a.missing.length ? ` (missing: ${a.missing.join(", ")})` : ""
    }, and ${a.goals.length ? `${a.goalsWithNumbers} of ${plural(a.goals.length, "goal")} state a number` : "no listed goals"}.`,
    `The check finds ${plural(a.check.issues.length, "issue")} (${c.high} high, ${c.medium} medium, ${c.low} low).`,
    `Strongest: ${label(best)} (${a.dimensions[best].score}); weakest: ${label(worst)} (${a.dimensions[worst].score}).`,
  ].join(" ");
}

function strengths(a: Analysis, order: Dimension[]) {
  if (!a.words) return [];
  const good = order.filter((d) => a.dimensions[d].score >= 80).map((d) => `${label(d)} (${a.dimensions[d].score}/100): ${a.dimensions[d].evidence}`);
  if (a.goals.length && a.goalsWithNumbers === a.goals.length) good.push(`Every goal (${a.goals.length}) states a number.`);
  if (a.stories && a.storiesWithAcceptance === a.stories) good.push(`Every user story (${a.stories}) has acceptance criteria.`);
  if (a.risks.length && a.risksWithMitigation === a.risks.length) good.push(`Every listed risk (${a.risks.length}) has a mitigation.`);
  if (good.length) return good;
  const best = order[0]!;
  if (a.dimensions[best].score < 40) return [];
  return [`Strongest area so far is ${label(best)} (${a.dimensions[best].score}/100): ${a.dimensions[best].evidence}`];
}

type Improvement = Review["improvements"][number];

export function improvements(a: Analysis, ctx: BuiltinContext): Improvement[] {
  const out: Improvement[] = [];
  const source = ctx.template ? `the “${ctx.template.name}” template` : "a standard PRD outline";
  for (const name of a.missing.slice(0, 4))
    out.push({
      priority: "high",
      suggestion: `Add a “${name}” section: ${source} expects it and the PRD has none.`,
    });
  if (a.missing.length > 4)
    out.push({
      priority: "high",
      suggestion: `Also missing: ${a.missing.slice(4).join(", ")}.`,
    });
  for (const issue of issuesOf(a, "empty_section").slice(0, 3))
    out.push({
      priority: "medium",
      suggestion: `Fill in “${issue.section}” (line ${issue.line}): it has a heading but no content.`,
    });
  const goals = issuesOf(a, "goal_without_number");
  if (goals.length)
    out.push({
      priority: "medium",
      suggestion: `${goals.length} of ${plural(a.goals.length, "goal")} state no number (${lineList(goals)}, e.g. “${shorten(
        goals[0]!.excerpt ?? "",
        60,
      )}”): give each a baseline, a target and a date.`,
    });
  else if (!a.goals.length && a.words)
    out.push({
      priority: "high",
      suggestion: "List the goals and success metrics, each with a measurable target: the PRD has none.",
    });
  const placeholders = issuesOf(a, "placeholder");
  if (placeholders.length)
    out.push({
      priority: "high",
      suggestion: `${plural(placeholders.length, "line")} still stand in for content (${lineList(placeholders)}, e.g. “${shorten(
        placeholders[0]!.excerpt ?? "",
        60,
      )}”): write what was decided, or move each question to Open Questions.`,
    });
  const stories = issuesOf(a, "story_without_acceptance");
  if (stories.length)
    out.push({
      priority: "medium",
      suggestion: `${stories.length} of ${plural(a.stories, "user story", "user stories")} have no acceptance criteria (${lineList(
        stories,
      )}): add Given/When/Then lines under each.`,
    });
  if (a.words && !a.risks.length)
    out.push({
      priority: "medium",
      suggestion: "List the main risks (delivery, adoption, technical) with a mitigation for each: the PRD names none.",
    });
  else if (a.risks.length > a.risksWithMitigation)
    out.push({
      priority: "medium",
      suggestion: `${a.risks.length - a.risksWithMitigation} of ${plural(a.risks.length, "risk")} in “${
        a.riskSection?.title ?? "Risks"
      }” have no mitigation: add how each is reduced or detected.`,
    });
  if (a.words && a.dimensions.userFocus.score < 50)
    out.push({
      priority: "medium",
      suggestion: `Say who the product is for: ${
        a.userSection ? `“${a.userSection.title}” names ${plural(a.personas.length, "user group")}` : "there is no target-users section"
      } and the text mentions users ${plural(a.userMentions, "time")}.`,
    });
  if (a.words && a.dimensions.technicalFeasibility.score < 50 && a.techMissing.length)
    out.push({
      priority: "medium",
      suggestion: `Add the technical view: nothing yet on ${a.techMissing.slice(0, 4).join(", ")}.`,
    });
  const vague = issuesOf(a, "vague_word");
  if (vague.length) {
    const found = [...new Set(vague.flatMap((i) => [...i.message.matchAll(/“([^”]+)”/g)].map((m) => m[1]!)))].slice(0, 5);
    out.push({
      priority: "low",
      suggestion: `Replace vague wording (${found.map((w) => `“${w}”`).join(", ")}) on ${lineList(vague)} with exact figures or behaviour.`,
    });
  }
  const todos = issuesOf(a, "open_todo");
  if (todos.length)
    out.push({
      priority: "low",
      suggestion: `Resolve ${plural(a.todos, "open TODO/TBD marker")} (${lineList(todos)}) or move them to Open Questions.`,
    });
  if (a.longSentences)
    out.push({
      priority: "low",
      suggestion: `Split the ${plural(a.longSentences, "sentence")} over 30 words into shorter ones.`,
    });
  if (!out.length && a.words) {
    const weakest = ranked(a).at(-1)!;
    out.push({
      priority: "low",
      suggestion: `Polish ${label(weakest)}, the lowest-scoring area (${a.dimensions[weakest].score}/100): ${a.dimensions[weakest].evidence}`,
    });
  }
  return out.slice(0, 10);
}

const RECOMMENDATION: Record<
  Dimension,
  {
    effort: "low" | "medium" | "high";
    impact: "low" | "medium" | "high";
    text: (a: Analysis) => string;
  }
> = {
  completeness: {
    effort: "medium",
    impact: "high",
    text: (a) =>
      a.missing.length
        ? `Write the ${plural(a.missing.length, "missing section")} (${a.missing.join(", ")}) so readers find every part of the plan.`
        : `Deepen the thin sections: the PRD has ${plural(a.words, "word")}${
            a.emptySections.length ? ` and ${plural(a.emptySections.length, "empty section")}` : ""
          }.`,
  },
  metrics: {
    effort: "low",
    impact: "high",
    text: (a) =>
      a.goals.length
        ? `Make every goal measurable: ${a.goalsWithNumbers} of ${a.goals.length} have a number; add baseline, target and timeframe.`
        : "Add a goals and success metrics list with a target for each, so the launch can be judged.",
  },
  clarity: {
    effort: "low",
    impact: "medium",
    text: (a) =>
      `Edit for precision: ${plural(a.vagueWords, "vague word")}, ${plural(a.todos, "open marker")} and ${plural(a.longSentences, "long sentence")} to fix.`,
  },
  userFocus: {
    effort: "medium",
    impact: "high",
    text: (a) =>
      `Ground the PRD in its users: ${plural(a.personas.length, "named user group")} and ${plural(
        a.stories,
        "user story",
        "user stories",
      )} so far; add who they are and what outcome each requirement gives them.`,
  },
  technicalFeasibility: {
    effort: "medium",
    impact: "medium",
    text: (a) => `Review with engineering and add the missing technical areas${a.techMissing.length ? ` (${a.techMissing.join(", ")})` : ""}.`,
  },
  riskAssessment: {
    effort: "low",
    impact: "medium",
    text: (a) =>
      `Run a short risk review: ${plural(a.risks.length, "risk")} listed, ${a.risksWithMitigation} mitigated, ${plural(
        a.openQuestions.length,
        "open question",
      )}.`,
  },
};

function recommendations(a: Analysis, order: Dimension[]): Review["recommendations"] {
  const weak = [...order]
    .reverse()
    .filter((d) => a.dimensions[d].score < 80)
    .slice(0, 4);
  if (!weak.length)
    return [
      {
        effort: "low",
        impact: "low",
        description: a.check.issues.length
          ? `Clear the ${plural(a.check.issues.length, "remaining check issue")} and share the PRD for stakeholder review.`
          : "Share the PRD for stakeholder review: the check finds no issues.",
      },
    ];
  return weak.map((d) => ({
    effort: RECOMMENDATION[d].effort,
    impact: RECOMMENDATION[d].impact,
    description: RECOMMENDATION[d].text(a),
  }));
}
