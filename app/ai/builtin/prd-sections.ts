import type { PrdStyle } from "../schemas";
import type { Fact, SectionPlan } from "./answers";
import type { BuiltinContext } from "./contract";
import { hasNumber, shorten } from "~/utils/md-doc";
import { type Capability, actorClauses, capabilityOf, entityOf, headNoun, plural, stripMarkers, trimEnd, ucFirst } from "./phrases";
import { dataModel as proposeModel } from "./data-model";
import { findPhrase } from "~/utils/literal";
import { isMeasurable, metricRow, NOT_STATED } from "./metrics";
import { story } from "./stories";
import { type Topic, cueScore, topic } from "./topics";

/**
 * Writing one PRD section from the facts (answer sentences) assigned to it.
 * Facts are quoted verbatim; what is missing becomes an "_Open question:_"
 * line and is collected for the Open Questions section.
 */

export interface Env {
  style: PrdStyle;
  /** Short output: no tables, fewer criteria (lean style or a "keep it short" preference). */
  terse: boolean;
  tables: boolean;
  ctx: BuiltinContext;
  personas: string[];
  /** The personas as one line, primary marked ("receptionists (primary), patients (often parents)"). */
  personaLine: string;
  goals: Fact[];
  problems: Fact[];
  capabilities: Capability[];
  entities: string[];
  /** Gaps found while writing: "**Section:** question". */
  gaps: string[];
  /** Topics some section is mainly about. */
  mainTopics: Set<string>;
}

const bullets = (facts: Fact[]) => facts.map((f) => (f.question && f.thin ? `- ${trimEnd(f.question)}? ${f.text}` : `- ${f.text}`));

function open(env: Env, section: string, question: string) {
  env.gaps.push(`**${section}:** ${question}`);
  return `_Open question:_ ${question}`;
}

/** The block for one topic of a section; empty facts give an open question. */
export function renderTopic(t: Topic, facts: Fact[], plan: SectionPlan, env: Env): string[] {
  const writer = WRITERS[t.id];
  if (writer) return writer(facts, plan, env);
  return facts.length ? bullets(facts) : [open(env, plan.title, t.question)];
}

type Writer = (facts: Fact[], plan: SectionPlan, env: Env) => string[];

const goals: Writer = (facts, plan, env) => {
  if (!facts.length) return [open(env, plan.title, topic("goals").question)];
  const out = bullets(facts);
  const rows = facts.map((f) => metricRow(f.text)).filter((r) => r !== null);
  if (rows.length && env.tables && !env.terse) {
    out.push("", "| Metric | Baseline | Target | Timeframe |", "| --- | --- | --- | --- |");
    for (const r of rows) out.push(`| ${r.metric} | ${r.baseline} | ${r.target} | ${r.when} |`);
  }
  const lines: string[] = [];
  for (const f of facts)
    if (!isMeasurable(f.text) && !metricRow(f.text) && cueScore(f.text, topic("goals")) > 0)
      lines.push(open(env, plan.title, `what are the baseline, target and timeframe for “${trimEnd(f.text)}”?`));
  for (const r of rows) {
    if (r.baseline === NOT_STATED) lines.push(open(env, plan.title, `what is today's baseline for ${r.metric}?`));
    if (r.when === NOT_STATED) lines.push(open(env, plan.title, `by when should ${r.metric} reach ${r.target}?`));
  }
  if (
    !env.terse &&
    env.style !== "lean" &&
    !facts.some((f) => /\bguardrail|must not (?:get worse|drop|rise|exceed)|stays? (?:under|below|above)\b/i.test(f.text))
  )
    lines.push(open(env, plan.title, "which guardrail metric must not get worse while chasing this goal?"));
  return lines.length ? [...out, "", ...lines] : out;
};

const users: Writer = (facts, plan, env) => {
  if (!facts.length) return [open(env, plan.title, topic("users").question)];
  const out = bullets(facts);
  if (env.personas.length) out.push("", `**Roles named:** ${env.personaLine}`);
  return out;
};

/** "As a …, I want …, so that …" with Given/When/Then criteria for each capability. */
export function storyLines(env: Env, max: number): string[] {
  const product = env.ctx.projectName?.trim() || "the product";
  const goals = env.goals.map((g) => g.text);
  return env.capabilities.slice(0, max).flatMap((c, i) => {
    const s = story(c, { personas: env.personas, goals, product, terse: env.terse });
    return [
      ...(i ? [""] : []),
      `### Story ${i + 1}: ${s.title}`,
      `${s.asA}.`,
      "",
      "Acceptance criteria:",
      ...s.criteria.map((c) => `- ${c}`),
      `- _Source:_ “${c.source}”`,
    ];
  });
}

const stories: Writer = (facts, plan, env) => {
  const own = facts.length ? [...bullets(facts), ""] : [];
  const lines = storyLines(env, env.terse ? 3 : 6);
  if (!lines.length) return [...own, open(env, plan.title, "which tasks must users be able to complete, step by step?")];
  if (!env.goals.length) env.gaps.push(`**${plan.title}:** what benefit does each story deliver (the “so that”)?`);
  return [...own, ...lines];
};

const PRIORITY: [RegExp, string][] = [
  [/\b(must|needs? to|has to|have to|required|shall)\b/i, "Must"],
  [/\bshould\b/i, "Should"],
  [/\b(could|nice to have|optional|maybe)\b/i, "Could"],
];

const LABEL_PRIORITY: Partial<Record<string, string>> = { must: "Must", should: "Should", could: "Could" };

const requirements: Writer = (allFacts, plan, env) => {
  // What the user said is out of scope is never a requirement, wherever it was said.
  const facts = allFacts.filter((f) => f.label !== "out");
  const outside = allFacts.filter((f) => f.label === "out").map((f) => `- _Out of scope:_ ${f.text}`);
  return [...requirementLines(facts, plan, env), ...(outside.length ? ["", ...outside] : [])];
};

const requirementLines = (facts: Fact[], plan: SectionPlan, env: Env): string[] => {
  // A sentence that states a requirement is quoted; one that only says who does what ("the clerk sends reminders") gives its clauses.
  const stated = facts.filter((f) => !actorClauses(f.text).length || capabilityOf(f.text)?.source === trimEnd(stripMarkers(f.text)));
  const derived = env.capabilities.filter((c) => !stated.some((s) => s.text.includes(c.source)));
  const items: { text: string; from: string; priority?: string }[] = [
    ...stated.map((f) => ({ text: f.text, from: "", priority: f.label && LABEL_PRIORITY[f.label] })),
    ...derived.map((c) => ({ text: `${ucFirst(c.role ? `the ${c.role} can ${c.verb} ${c.object}` : c.want)}.`, from: c.source })),
  ];
  if (!items.length) return [open(env, plan.title, topic("requirements").question)];
  if (env.style === "agile" && /epic/i.test(plan.title)) return epics(items.map((i) => i.text));
  const out = items.map((it, i) => {
    // A priority only when the user gave one (a "Must:" label, or the word); the missing ones are asked once, under Open Questions.
    const p = it.priority ?? PRIORITY.find(([re]) => re.test(it.text))?.[1];
    return `- **FR-${i + 1}**${p ? ` (${p})` : ""}: ${it.text}${it.from ? ` _(from: “${it.from}”)_` : ""}`;
  });
  if (items.some((it) => !it.priority && !PRIORITY.some(([re]) => re.test(it.text))))
    env.gaps.push(`**${plan.title}:** which requirements are Must, Should or Could?`);
  return out;
};

/** Requirements grouped by the record they act on, one epic per record. */
function epics(items: string[]) {
  const groups = new Map<string, string[]>();
  for (const text of items) {
    const cap = capabilityOf(text);
    const key = (cap?.verb && entityOf(cap.object)) || "general";
    groups.set(key, [...(groups.get(key) ?? []), text]);
  }
  // The record's name as the user cased it ("SMS reminder", not "Sms reminder").
  const asWritten = (name: string, list: string[]) => findPhrase(list.join(" "), name) ?? name;
  return [...groups].flatMap(([name, list], i) => [
    ...(i ? [""] : []),
    `### Epic ${i + 1}: ${name === "general" ? "Other requirements" : ucFirst(plural(asWritten(name, list)))}`,
    ...list.map((t) => `- ${t}`),
  ]);
}

const NEGATIVE = /\b(not|won't|will not|out of scope|later|exclud\w*|non-goals?|no\b|never|leave out|leaving out|v2|phase 2)\b/i;

/** Out of scope: what the user labelled so ("Out of scope:", "We will not …"), or, unlabelled, what reads as a negation. */
export const isOutOfScope = (f: Fact) => f.label === "out" || (f.label !== "in" && NEGATIVE.test(f.text));

const scope: Writer = (facts, plan, env) => {
  const out = facts.filter(isOutOfScope);
  const inside = facts.filter((f) => !isOutOfScope(f));
  const lines: string[] = [];
  const nonGoals = out.length ? bullets(out) : [open(env, plan.title, "what are you deliberately leaving out, and why?")];
  // A section that is only about non-goals keeps everything said under it, except what was labelled in scope.
  if (/^(?:non-goals?|out of scope)$/i.test(plan.title)) {
    const kept = facts.filter((f) => f.label !== "in");
    return kept.length ? bullets(kept) : nonGoals;
  }
  // A blank line after each label keeps it a paragraph of its own in Markdown.
  lines.push("**In scope**", "", ...(inside.length ? bullets(inside) : [open(env, plan.title, "what is in scope for the first release?")]), "");
  lines.push("**Non-goals**", "", ...nonGoals);
  return lines;
};

const risks: Writer = (facts, plan, env) => {
  if (!facts.length) return [open(env, plan.title, topic("risks").question)];
  // A mitigation only when the user wrote one; the risks without are asked about once, under Open Questions.
  const mitigated = (f: Fact) => /mitigat|fallback|if .+ then|we will|we'll|to avoid|prevent/i.test(f.text);
  const without = facts.filter((f) => !mitigated(f));
  if (without.length && !env.terse)
    env.gaps.push(`**${plan.title}:** how will each of these be reduced or detected: ${without.map((f) => `“${shorten(trimEnd(f.text), 60)}”`).join(", ")}?`);
  return facts.map((f) => `- ${f.text}`);
};

const release: Writer = (facts, plan, env) => {
  if (!facts.length) return [open(env, plan.title, topic("release").question)];
  const out = bullets(facts);
  if (!facts.some((f) => hasNumber(f.text))) out.push("", open(env, plan.title, "what are the target dates or exit criteria for each phase?"));
  return out;
};

const proposed = (label: string, list: string[]) => (list.length ? [`_${label} (proposed, from the answers):_ ${list.join(", ")}`] : []);

const dataModel: Writer = (facts, plan, env) => {
  if (facts.length) return bullets(facts);
  // Only fields the requirements name, each with its source; never a record without one.
  const fields = proposeModel(
    env.capabilities.map((c) => c.source),
    env.entities,
  ).flatMap((e) => e.fields.map((f) => `${e.name}.${f.name} (“${shorten(f.source, 80)}”)`));
  return [...proposed("Fields the requirements name", fields), open(env, plan.title, topic("dataModel").question)];
};
const api: Writer = (facts, plan, env) =>
  facts.length
    ? bullets(facts)
    : [
        ...proposed(
          "Operations implied by the requirements",
          env.capabilities.filter((c) => c.verb).map((c) => `${c.verb} ${headNoun(c.object) ?? ""}`.trim()),
        ),
        open(env, plan.title, topic("api").question),
      ];

const WRITERS: Record<string, Writer> = { goals, users, stories, requirements, scope, risks, release, dataModel, api };
