import type { SuggestionDraft } from "../schemas";
import { type Analysis, analyze, issuesOf, lineList, plural, TECH_AREAS } from "./analysis";
import type { BuiltinContext } from "./contract";
import { shorten, words } from "~/utils/md-doc";

/**
 * 3 to 5 suggestions from the most important measured issues (missing and
 * empty sections, unmeasured goals, stories without acceptance criteria,
 * weak dimensions, vague words, TODOs), then polish suggestions grounded in
 * the counts so a good PRD still gets three. Deterministic order.
 */
export function suggestions(input: { content: string }, ctx: BuiltinContext): SuggestionDraft[] {
  const a = analyze(input.content, ctx);
  const seen = new Set<string>();
  const out: SuggestionDraft[] = [];
  for (const s of [...issueSuggestions(a, ctx), ...polish(a)]) {
    const key = `${s.type}|${s.section}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...s, title: shorten(s.title, 200) });
    if (out.length === 5) break;
  }
  return out;
}

const sectionOr = (title: string | null | undefined, fallback: string) => (title && title.trim() ? title : fallback);

function issueSuggestions(a: Analysis, ctx: BuiltinContext): SuggestionDraft[] {
  const out: SuggestionDraft[] = [];
  const source = ctx.template ? `The “${ctx.template.name}” template` : "A standard PRD outline";
  for (const name of a.missing.slice(0, 2))
    out.push({
      section: name,
      type: "completeness",
      severity: "high",
      title: `Add a “${name}” section`,
      description: `${source} expects a “${name}” section and the PRD has none.`,
    });
  const goals = issuesOf(a, "goal_without_number");
  if (goals.length)
    out.push({
      section: sectionOr(goals[0]!.section, "Goals"),
      type: "metrics",
      severity: goals.length === a.goals.length ? "high" : "medium",
      title: `Give ${plural(goals.length, "goal")} a measurable target`,
      description: `${goals.length} of ${plural(a.goals.length, "goal")} state no number (${lineList(goals)}), e.g. “${shorten(
        goals[0]!.excerpt ?? "",
        80,
      )}”. Add a baseline, a target and a date.`,
    });
  for (const issue of issuesOf(a, "empty_section").slice(0, 2))
    out.push({
      section: issue.section!,
      type: "completeness",
      severity: "medium",
      title: `Fill in “${issue.section}”`,
      description: `“${issue.section}” (line ${issue.line}) has a heading but no content yet.`,
    });
  const stories = issuesOf(a, "story_without_acceptance");
  if (stories.length)
    out.push({
      section: sectionOr(stories[0]!.section, "User Stories"),
      type: "clarity",
      severity: "medium",
      title: `Add acceptance criteria to ${plural(stories.length, "user story", "user stories")}`,
      description: `${stories.length} of ${plural(a.stories, "story", "stories")} have no Given/When/Then or acceptance list (${lineList(stories)}).`,
    });
  if (a.words && a.dimensions.userFocus.score < 50)
    out.push({
      section: sectionOr(a.userSection?.title, "Target Users"),
      type: "user_focus",
      severity: "medium",
      title: "Describe the target users",
      description: `${
        a.userSection ? `“${a.userSection.title}” names ${plural(a.personas.length, "user group")}` : "No target-users section"
      } and users are mentioned ${plural(a.userMentions, "time")}: say who they are, what they need and why.`,
    });
  if (a.words && !a.risks.length)
    out.push({
      section: "Risks",
      type: "risk",
      severity: "medium",
      title: "List the main risks with mitigations",
      description: `No risks are listed${
        a.openQuestions.length ? `, though ${plural(a.openQuestions.length, "open question")} remain` : ""
      }: name each risk and how it is reduced.`,
    });
  if (a.words && a.dimensions.technicalFeasibility.score < 50 && a.techMissing.length)
    out.push({
      section: sectionOr(a.techSection?.title, "Technical Considerations"),
      type: "technical",
      severity: "medium",
      title: "Add the technical view",
      description: `The PRD covers ${a.techAreas.length} of ${TECH_AREAS.length} technical areas; nothing yet on ${a.techMissing.slice(0, 4).join(", ")}.`,
    });
  const vague = issuesOf(a, "vague_word");
  if (vague.length) {
    const top = mostCommonSection(vague.map((v) => v.section));
    out.push({
      section: sectionOr(top, "General"),
      type: "clarity",
      severity: "low",
      title: `Replace ${plural(a.vagueWords, "vague word")}`,
      description: `${vague[0]!.message.split(":")[0]} on ${lineList(vague)}: state exact behaviour or figures.`,
    });
  }
  const todos = issuesOf(a, "open_todo");
  if (todos.length)
    out.push({
      section: sectionOr(todos[0]!.section, "Open Questions"),
      type: "completeness",
      severity: "low",
      title: `Resolve ${plural(a.todos, "open marker")}`,
      description: `TODO/TBD markers remain on ${lineList(todos)}: decide them or move them to Open Questions.`,
    });
  out.sort((x, y) => rank(x.severity) - rank(y.severity));
  for (const name of a.missing.slice(2))
    out.push({
      section: name,
      type: "completeness",
      severity: "high",
      title: `Add a “${name}” section`,
      description: `${source} expects a “${name}” section and the PRD has none.`,
    });
  return out;
}

/** Lower-severity improvements that apply even to a good PRD, each citing a count. */
function polish(a: Analysis): SuggestionDraft[] {
  const goals = sectionOr(
    a.goals.length ? (a.check.issues.find((i) => i.rule === "goal_without_number")?.section ?? findTitle(a, /goal|metric|success|objective/i)) : null,
    "Goals and Success Metrics",
  );
  return [
    !a.risks.length
      ? {
          section: "Risks",
          type: "risk" as const,
          severity: "low" as const,
          title: "List the main risks with mitigations",
          description: "No risks are listed yet: name each delivery, adoption or technical risk and how it is reduced.",
        }
      : a.risksWithMitigation < a.risks.length
        ? {
            section: sectionOr(a.riskSection?.title, "Risks"),
            type: "risk" as const,
            severity: "medium" as const,
            title: "Add mitigations to every risk",
            description: `${a.risks.length - a.risksWithMitigation} of ${plural(a.risks.length, "risk")} have no mitigation.`,
          }
        : {
            section: sectionOr(a.riskSection?.title, "Risks"),
            type: "risk" as const,
            severity: "low" as const,
            title: "Give each risk an owner and an early signal",
            description: `${plural(a.risks.length, "risk")} listed${
              a.risks.length ? `, ${a.risksWithMitigation} with a mitigation` : ""
            }; an owner and a signal to watch make them actionable.`,
          },
    a.techMissing.length
      ? {
          section: sectionOr(a.techSection?.title, "Technical Considerations"),
          type: "technical" as const,
          severity: "low" as const,
          title: `Cover ${a.techMissing.slice(0, 2).join(" and ")}`,
          description: `The PRD mentions ${a.techAreas.length} of ${TECH_AREAS.length} technical areas; missing: ${a.techMissing.join(", ")}.`,
        }
      : {
          section: sectionOr(a.techSection?.title, "Technical Considerations"),
          type: "technical" as const,
          severity: "low" as const,
          title: "Put numbers on non-functional requirements",
          description: `All ${TECH_AREAS.length} technical areas are mentioned; check each has a limit (latency, uptime, data volume) engineering can test.`,
        },
    !a.goals.length
      ? {
          section: goals,
          type: "metrics" as const,
          severity: "low" as const,
          title: "List goals with measurable targets",
          description: "No goals or success metrics are listed yet; each needs a baseline, a target and a date.",
        }
      : {
          section: goals,
          type: "metrics" as const,
          severity: "low" as const,
          title: "Name how each metric is measured",
          description: `${a.goalsWithNumbers} of ${plural(a.goals.length, "goal")} state a number; add the data source and the baseline for each.`,
        },
    {
      section: sectionOr(a.userSection?.title, "Target Users"),
      type: "user_focus" as const,
      severity: "low" as const,
      title: "Tie requirements to the users they serve",
      description: `${plural(a.requirements.length, "requirement")} and ${plural(
        a.personas.length,
        "named user group",
      )}: note which group each requirement is for.`,
    },
    structure(a),
  ];
}

/** A structure suggestion: a summary when the PRD has no text before its first section, else sub-headings for the longest section. */
function structure(a: Analysis): SuggestionDraft {
  const preamble = a.doc.sections.find((s) => !s.title);
  if (!preamble)
    return {
      section: "Document",
      type: "structure",
      severity: "low",
      title: "Add a one-paragraph summary at the top",
      description: `The PRD has ${plural(a.sections, "section")} and ${plural(
        a.words,
        "word",
      )} but no summary before the first section; a few lines on problem, users and goals help reviewers.`,
    };
  const longest = [...a.doc.sections].filter((s) => s.title).sort((x, y) => words(y.body).length - words(x.body).length)[0];
  if (!longest)
    return {
      section: "Document",
      type: "structure",
      severity: "low",
      title: "Split the text into sections",
      description: `The PRD has ${plural(a.words, "word")} and no H2 sections; sections let reviewers find the goals, users and requirements.`,
    };
  return {
    section: longest.title,
    type: "structure",
    severity: "low",
    title: `Break “${shorten(longest.title, 60)}” into sub-sections`,
    description: `“${longest.title}” is the longest section (${plural(words(longest.body).length, "word")}, ${plural(
      longest.subheadings.length,
      "sub-heading",
    )}); H3 sub-headings make it easier to review.`,
  };
}

const rank = (s: SuggestionDraft["severity"]) => ({ high: 0, medium: 1, low: 2 })[s];
const findTitle = (a: Analysis, re: RegExp) => a.doc.sections.find((s) => s.title && re.test(s.title))?.title ?? null;

function mostCommonSection(sections: (string | null)[]) {
  const counts = new Map<string, number>();
  for (const s of sections) if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? null;
}
