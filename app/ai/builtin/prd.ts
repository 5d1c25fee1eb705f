import type { PrdStyle } from "../schemas";
import { type Fact, type Reading, type SectionPlan, planSections, readAnswers } from "./answers";
import { bestTopic, planScore } from "./placement";
import type { BuiltinContext, BuiltinMemory, QaPair } from "./contract";
import { shorten } from "~/utils/md-doc";
import { type Env, renderTopic } from "./prd-sections";
import { type Capability, actorClauses, capabilityOf, entityNouns, quoteClause, trimEnd, ucFirst } from "./phrases";
import { namedPersonas, personaLine } from "./personas";
import { LABEL_TOPIC } from "./labels";
import { cueScore, topic } from "./topics";

/**
 * The PRD writer: H1 title, then the template's sections (or a default
 * outline per style) as H2, each filled with the user's own sentences from
 * the interview, with open questions where nothing was said.
 */

export const STYLE_OUTLINES: Record<PrdStyle, string[]> = {
  comprehensive: [
    "Overview",
    "Problem Statement",
    "Goals and Success Metrics",
    "Target Users and Personas",
    "User Stories and Acceptance Criteria",
    "Functional Requirements",
    "Non-Functional Requirements",
    "Scope and Non-Goals",
    "User Experience and Design",
    "Dependencies and Assumptions",
    "Risks and Mitigations",
    "Release Plan and Milestones",
    "Open Questions",
  ],
  technical: [
    "Summary",
    "Problem and Motivation",
    "Goals and Success Metrics",
    "Users and Use Cases",
    "Architecture Overview",
    "Functional Requirements",
    "Data Model",
    "API Design",
    "Non-Functional Requirements",
    "Security and Privacy",
    "Testing Strategy",
    "Rollout and Rollback",
    "Risks and Mitigations",
    "Open Questions",
  ],
  business: [
    "Executive Summary",
    "Problem and Market Opportunity",
    "Target Customers",
    "Business Case",
    "Goals and KPIs",
    "Solution Overview",
    "Pricing and Packaging",
    "Go-to-Market Plan",
    "Risks and Mitigations",
    "Open Questions",
  ],
  lean: ["Problem", "Target Users", "Proposed Solution", "Success Metrics", "Non-Goals", "Open Questions"],
  agile: ["Product Vision", "Problem", "Users and Personas", "Goals", "Epics", "User Stories", "Definition of Done", "Release Plan", "Open Questions"],
};

const STYLE_LABEL: Record<PrdStyle, string> = {
  comprehensive: "Comprehensive",
  technical: "Technical",
  business: "Business",
  lean: "Lean",
  agile: "Agile",
};

const SHORT = /\b(concise|short|shorter|brief|lean|less text|too long|too wordy|too verbose|bullet points? only)\b/i;
const NO_TABLES = /\b(no|avoid|without|don't use|do not use) tables?\b/i;
const DOC_WORDS = /\b(prds?|documents?|docs?|sections?|bullets?|tables?|format|tone|concise|short|long|metrics?|stories|headings?|style|writing|language)\b/i;

export function generatePrd(input: { style: PrdStyle; qaPairs: QaPair[] }, ctx: BuiltinContext): string {
  const style = input.style;
  const titles = ctx.template?.sections.filter((s) => s.trim()).length ? ctx.template.sections.filter((s) => s.trim()) : STYLE_OUTLINES[style];
  const plans = planSections(titles);
  const reading = readAnswers(input.qaPairs, plans, ctx);
  const facts = reading.facts;
  const fallback = plans.find((p) => !p.derived && p.topics[0]?.id === "requirements") ?? plans.find((p) => !p.derived);
  const bySection = plans.map((p) => facts.filter((f) => f.sections.includes(p.index) || (!f.sections.length && p === fallback)));

  const prefs = ctx.memories.filter(
    (m) => (m.memoryType === "preference" || m.memoryType === "feedback") && (m.category === "style" || DOC_WORDS.test(m.content)),
  );
  // Facts about a topic: in a section on it, and (in a section on several topics) closest to it.
  // An off-topic answer stays in its section, in its words, but speaks for no topic (the Overview, stories, personas).
  // What the user put out of scope feeds no story, capability or record.
  const inScope = facts.filter((f) => f.label !== "out");
  const ofTopic = (id: string) => inScope.filter((f) => !f.offTopic && f.sections.some((i) => topicOf(f, plans[i]!).id === id));
  const goalFacts = ofTopic("goals");
  const reqTexts = [...ofTopic("requirements"), ...ofTopic("stories")].map((f) => f.text);
  const env: Env = {
    style,
    terse: style === "lean" || prefs.some((m) => SHORT.test(m.content)),
    tables: !prefs.some((m) => NO_TABLES.test(m.content)),
    ctx,
    ...personasOf(ofTopic("users").length ? ofTopic("users") : inScope),
    goals: goalFacts.length ? goalFacts : inScope.filter((f) => cueScore(f.text, topic("goals")) >= 2),
    problems: ofTopic("problem"),
    capabilities: capabilities(reqTexts, inScope),
    entities: entityNouns(reqTexts.length ? reqTexts : inScope.map((f) => f.text)),
    gaps: [],
    mainTopics: new Set(plans.map((p) => p.topics[0]!.id)),
  };

  const title = ctx.projectName?.trim() || (facts[0] ? ucFirst(quoteClause(facts[0].text, 60)) : "Product Requirements Document");
  const head = [`# ${title}`, ""];
  if (ctx.projectDescription?.trim()) head.push(`> ${ctx.projectDescription.trim().replace(/\n+/g, " ")}`, "");
  const answered = input.qaPairs.filter((p) => p.answer.trim()).length;
  head.push(
    answered
      ? `_Draft · ${STYLE_LABEL[style]} style · written from ${answered} interview answer${answered === 1 ? "" : "s"}; open questions mark what is still missing._`
      : `_Outline · ${STYLE_LABEL[style]} style · no interview answers yet: each section lists the question that fills it._`,
    "",
  );
  if (prefs.length)
    head.push(
      `_Following your saved preferences: ${prefs
        .slice(0, 3)
        .map((m) => `“${shorten(m.content, 120)}”`)
        .join("; ")}._`,
      "",
    );

  const notes = memoryNotes(ctx.memories, plans);
  const bodies = new Map<number, string[]>();
  // Derived sections (overview, definition of done, open questions) are written last, from the others.
  for (const plan of plans.filter((p) => !p.derived)) bodies.set(plan.index, sectionBody(plan, bySection[plan.index]!, env));
  for (const plan of plans.filter((p) => p.derived && p.topics[0]!.id !== "open")) bodies.set(plan.index, derivedBody(plan, env, facts));
  for (const plan of plans.filter((p) => p.topics[0]!.id === "open")) bodies.set(plan.index, openQuestions(env, facts, reading));

  const out = [...head];
  for (const plan of plans) {
    out.push(
      `## ${plan.title}`,
      "",
      ...withoutAskedQuestions(
        bodies.get(plan.index)!,
        plans.some((p) => p.topics[0]!.id === "open"),
      ),
    );
    const note = notes.get(plan.index);
    if (note) out.push("", ...note);
    out.push("");
  }
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()}\n`;
}

/**
 * A section with content of its own loses its inline "_Open question:_"
 * lines when the PRD has an Open Questions section, which lists them all:
 * the section reads as what was said, the list as what is missing. A section
 * with nothing else keeps its question, saying what it needs.
 */
function withoutAskedQuestions(body: string[], listed: boolean) {
  const asked = (l: string) => l.startsWith("_Open question:_");
  // A label ("**In scope**") says nothing by itself.
  const label = (l: string) => /^\*\*[^*]+\*\*$/.test(l.trim());
  if (!listed || !body.some((l) => l.trim() && !asked(l) && !label(l))) return body;
  const kept = body.filter((l) => !asked(l));
  // A label left with nothing under it goes too.
  return kept.filter((l, i) => !label(l) || (kept.slice(i + 1).find((n) => n.trim()) !== undefined && !label(kept.slice(i + 1).find((n) => n.trim())!)));
}

/** The topic of a section a fact is about: the one its label names, else the one it speaks to most. */
function topicOf(f: Fact, plan: SectionPlan) {
  return (f.label && plan.topics.find((t) => t.id === LABEL_TOPIC[f.label!])) || bestTopic(f.text, plan);
}

/** The personas the user named, primary first, for the stories and the "For:" line. */
function personasOf(facts: Fact[]) {
  const named = namedPersonas(facts.map((f) => f.text));
  return { personas: named.map((p) => p.name), personaLine: personaLine(named) };
}

/** Stories' capabilities: from requirement sentences, then "who does what" clauses anywhere. */
function capabilities(reqTexts: string[], facts: Fact[]): Capability[] {
  const out: Capability[] = [];
  const seen = new Set<string>();
  const add = (c: Capability | undefined) => {
    if (!c || seen.has(c.want.toLowerCase())) return;
    seen.add(c.want.toLowerCase());
    out.push(c);
  };
  for (const t of reqTexts) {
    const clauses = actorClauses(t);
    if (clauses.length > 1) clauses.forEach(add);
    else add(capabilityOf(t));
  }
  for (const f of facts) actorClauses(f.text).forEach(add);
  return out;
}

function sectionBody(plan: SectionPlan, facts: Fact[], env: Env): string[] {
  // A secondary topic that another section is mainly about is left to that section.
  const live = plan.topics.filter((t, i) => !t.derived && (i === 0 || !env.mainTopics.has(t.id)));
  if (live.length < 2) return renderTopic(live[0] ?? plan.topics[0]!, facts, plan, env);
  // A section with several topics: each fact goes under the topic it speaks to most.
  const groups = live.map((t) => ({ t, facts: [] as Fact[] }));
  for (const f of facts) {
    const labelled = f.label && groups.find((g) => g.t.id === LABEL_TOPIC[f.label!]);
    const scores = groups.map((g) => cueScore(f.text, g.t));
    (labelled || groups[scores.indexOf(Math.max(...scores))]!).facts.push(f);
  }
  return groups.flatMap((g, i) => [...(i ? [""] : []), ...renderTopic(g.t, g.facts, plan, env)]);
}

function derivedBody(plan: SectionPlan, env: Env, _facts: Fact[]): string[] {
  if (plan.topics[0]!.id === "dod") {
    return [
      "- [ ] Every acceptance criterion in the stories passes.",
      ...env.goals.slice(0, 2).map((g) => `- [ ] Tracking is in place for: “${trimEnd(g.text)}”.`),
      "- [ ] Open questions below are answered or explicitly deferred.",
    ];
  }
  const lines: string[] = [];
  const first = (list: Fact[]) => list[0]?.text;
  // Only a sentence about the problem is the problem: never the first thing said, whatever it was.
  const problem = first(env.problems);
  if (problem) lines.push(`**Problem:** ${problem}`);
  if (env.personas.length) lines.push(`**For:** ${env.personaLine}`);
  if (env.goals[0]) lines.push(`**Success looks like:** ${env.goals[0].text}`);
  if (env.capabilities.length)
    lines.push(
      `**Key capabilities:** ${env.capabilities
        .slice(0, 3)
        .map((c) => c.want.replace(/^to /, ""))
        .join("; ")}`,
    );
  if (!lines.length) {
    env.gaps.unshift(`**${plan.title}:** ${topic("overview").question}`);
    return [`_Open question:_ ${topic("overview").question}`];
  }
  return lines.map((l, i) => (i < lines.length - 1 ? `${l}  ` : l));
}

function openQuestions(env: Env, facts: Fact[], reading: Reading): string[] {
  const clarified = reading.clarifications.length ? ["", "**Clarifications**", "", ...reading.clarifications.map((c) => `- ${c.question} — ${c.answer}`)] : [];
  const contradictions = reading.contradictions.map((c) => `**Contradiction:** ${c.question}`);
  const raised = facts
    .filter((f) => f.label === "open" || /\?|\b(not sure|unsure|undecided|tbd|to be decided|don't know yet|unclear)\b/i.test(f.text))
    .map((f) => `**Raised in the interview:** ${f.text}`);
  const all = [...new Set([...contradictions, ...raised, ...env.gaps])];
  if (!all.length) return ["No open questions came up in the interview. Add any that come up in review, each with an owner.", ...clarified];
  return [...all.map((q, i) => `${i + 1}. ${q}`), ...clarified];
}

/** Decisions and project context from memory, each under the section it fits best. */
function memoryNotes(memories: BuiltinMemory[], plans: SectionPlan[]) {
  const groups = new Map<number, { decisions: string[]; context: string[] }>();
  const live = plans.filter((p) => !p.derived);
  for (const m of memories.filter((m) => m.memoryType === "decision" || m.memoryType === "project_context").slice(0, 8)) {
    const best = [...live].sort((a, b) => planScore(m.content, b) - planScore(m.content, a) || a.index - b.index)[0];
    const plan = best && planScore(m.content, best) > 0 ? best : (plans.find((p) => p.topics[0]?.id === "dependencies") ?? plans[0]);
    if (!plan) continue;
    const g = groups.get(plan.index) ?? { decisions: [], context: [] };
    (m.memoryType === "decision" ? g.decisions : g.context).push(`- ${shorten(m.content, 300)}`);
    groups.set(plan.index, g);
  }
  const notes = new Map<number, string[]>();
  for (const [index, g] of groups) {
    notes.set(index, [
      ...(g.decisions.length ? ["**Decisions already made:**", ...g.decisions] : []),
      ...(g.context.length ? [...(g.decisions.length ? [""] : []), "**Context:**", ...g.context] : []),
    ]);
  }
  return notes;
}
