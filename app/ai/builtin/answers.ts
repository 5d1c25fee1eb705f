import type { BuiltinContext, QaPair } from "./contract";
import { sameTitle } from "~/utils/md-doc";
import { answerUnits, labelledUnits } from "./answer-units";
import { isTalk, withoutOpeningTalk } from "./chatter";
import type { LabelKind } from "./labels";
import { type Contradiction, isSettlingQuestion, settle } from "./contradictions";
import { ucFirst } from "./phrases";
import { planScore, placeStatement } from "./placement";
import { mentions, retractionOf } from "./retractions";
import { contextWords, isAside, isOffTopic, speaksToNoSection } from "./relevance";
import { documentFacts } from "./document-facts";
import { isThin, isVague } from "./phrases";
import { type Topic, topicsForTitle } from "./topics";

/**
 * Reading the builder's answers against a PRD outline: which section each
 * question targeted, which sentences of the answers belong in which section,
 * and which sections are covered. Shared by the interview and the PRD writer.
 */

export interface SectionPlan {
  title: string;
  index: number;
  topics: Topic[];
  /** Written from the other sections (overview, open questions); never asked. */
  derived: boolean;
  priority: number;
  question: string;
  hint: string;
}

export const DEFAULT_OUTLINE = ["Problem", "Goals and Success Metrics", "Target Users", "Requirements", "Scope and Non-Goals", "Risks", "Release Plan"];

export const GENERIC_FIRST_QUESTION = "What problem do you want to solve, who has it, and how do they deal with it today? A concrete example helps a lot.";

export const FOLLOW_UP_PREFIX = "Could you be more specific about";

export function planSections(titles: string[]): SectionPlan[] {
  const used = new Set<string>();
  return titles.map((title, index) => {
    const topics = topicsForTitle(title);
    const main = topics[0]!;
    const asked = topics.filter((t) => !t.derived);
    let question = asked.length > 1 ? `For “${title}”: tell me ${asked[0]!.ask}, and ${asked[1]!.ask}.` : (asked[0] ?? main).question;
    // Two sections on one topic get questions of their own, so an answer always tells which it was for.
    if (used.has(question)) question = `For “${title}”: ${question}`;
    used.add(question);
    return {
      title,
      index,
      topics,
      derived: Boolean(main.derived),
      priority: Math.min(...topics.map((t) => t.priority)),
      question,
      hint: asked.map((t) => t.hint).join(" ") || main.hint,
    };
  });
}

/** The outline of the interview: the template's sections, or the default. */
export function interviewOutline(ctx: BuiltinContext) {
  const sections = ctx.template?.sections.filter((s) => s.trim()) ?? [];
  return planSections(sections.length ? sections : DEFAULT_OUTLINE);
}

export function firstQuestionOf(ctx: BuiltinContext) {
  return ctx.template?.initialQuestion?.trim() || GENERIC_FIRST_QUESTION;
}

const lower = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/** The section a question was asking about, or -1. */
export function targetOf(question: string, plans: SectionPlan[], ctx: BuiltinContext): number {
  const q = lower(question);
  if (!q) return -1;
  const exact = plans.find((p) => lower(p.question) === q);
  if (exact) return exact.index;
  const named = plans.filter((p) => !p.derived && q.includes(`“${lower(p.title)}”`)).sort((a, b) => b.title.length - a.title.length)[0];
  if (named) return named.index;
  if (q === lower(firstQuestionOf(ctx)) || q === lower(GENERIC_FIRST_QUESTION)) return mostImportant(plans.filter((p) => !p.derived))?.index ?? -1;
  let best: { index: number; at: number } | null = null;
  for (const p of plans) {
    if (p.derived) continue;
    for (const t of p.topics) {
      const m = t.title.exec(question);
      if (m && (!best || m.index < best.at)) best = { index: p.index, at: m.index };
    }
  }
  return best?.index ?? -1;
}

export const mostImportant = (plans: SectionPlan[]) => [...plans].sort((a, b) => a.priority - b.priority || a.index - b.index)[0];

export interface Fact {
  text: string;
  /** Index of the answer (pair) it comes from. */
  answer: number;
  /** The question it answers, when it is not one of the drafter's own. */
  question?: string;
  /** Sections it is written into. */
  sections: number[];
  /** Sections it counts as covering (a thin answer covers none). */
  covers: number[];
  thin: boolean;
  /** The label the user gave it ("Out of scope:", "Must:"; labels.ts). */
  label?: LabelKind;
  /** Said about nothing the outline asks (no cue of any section, no figure, no role). */
  offTopic?: boolean;
  /** From the project description, standing in for a section nobody answered. */
  fromDescription?: boolean;
  /** From the project's current PRD (an import, or the user's edits), for a section no answer covers. */
  fromDocument?: boolean;
}

export interface Reading {
  plans: SectionPlan[];
  facts: Fact[];
  /** Per answer: the section its question targeted (-1 when none). */
  targets: number[];
  covered: boolean[];
  /** Sections already asked about (answered, or skipped after two thin answers). */
  asked: Set<number>;
  /** Per answer: every statement of it went to another section than its question's. */
  missed: boolean[];
  /** Contradictions in the answers nobody has settled yet (contradictions.ts). */
  contradictions: Contradiction[];
  /** Settling questions and their answers, for the PRD's Clarifications list. */
  clarifications: { question: string; answer: string }[];
  /** Statements the user took back, by the answer that took them back. */
  retracted: { answer: number; text: string }[];
  /** Sentences left out of the PRD: about nothing the project or their question names. */
  asides: { answer: number; text: string }[];
}

export function readAnswers(pairs: QaPair[], plans: SectionPlan[], ctx: BuiltinContext): Reading {
  const facts: Fact[] = [];
  const targets: number[] = [];
  const asked = new Set<number>();
  const thinCount = new Map<number, number>();
  const missed: boolean[] = [];
  const asides: { answer: number; text: string }[] = [];
  const retracted: { answer: number; text: string }[] = [];
  const live = plans.filter((p) => !p.derived);
  const settling: QaPair[] = [];
  pairs.forEach((pair, answer) => {
    // The answer to a question that settles a contradiction is a clarification, not a statement of its own.
    if (isSettlingQuestion(pair.question)) {
      targets.push(-1);
      missed.push(false);
      settling.push(pair);
      return;
    }
    const target = targetOf(pair.question, plans, ctx);
    targets.push(target);
    // Without a description, the first answer is what the project is: there is nothing yet to be off.
    const context = answer > 0 || ctx.projectDescription?.trim() ? contextWords(ctx, pair.question, pairs.slice(0, answer)) : undefined;
    const offTopic = !isThin(pair.answer) && (context ? isOffTopic(pair.answer, context, live, plans[target]) : speaksToNoSection(pair.answer, live));
    // "Scratch that." is short, not thin: it says something.
    const retracting = labelledUnits(pair.answer).some((u) => !u.label && retractionOf(withoutOpeningTalk(u.text)));
    const thin = (isThin(pair.answer) && !retracting) || offTopic;
    const first = facts.length;
    readPair(pair, answer, target, thin, offTopic, context);
    // An answer that only took something back leaves its question open: the interview asks it again.
    if (retracting && facts.slice(first).every((f) => f.label === "out")) {
      missed.push(false);
      return;
    }
    // An answer whose every statement went to another section has not answered its question yet.
    const mine = facts.slice(first);
    const allAside = mine.length === 0 && asides.some((a) => a.answer === answer);
    const miss = target >= 0 && !thin && (allAside || (mine.length > 0 && !mine.some((f) => f.covers.includes(target))));
    missed.push(miss);
    if (target >= 0) {
      const n = (thinCount.get(target) ?? 0) + (thin || miss ? 1 : 0);
      thinCount.set(target, n);
      if (!(thin || miss) || n >= 2) asked.add(target);
    }
  });

  function readPair(pair: QaPair, answer: number, target: number, thin: boolean, offTopic: boolean, context: Set<string> | undefined) {
    if (isVague(pair.answer)) return;
    // An answer about nothing the project names is not written into the PRD; the builder asks again.
    // (A first answer with nothing before it to compare is kept where it was asked, marked, and used for nothing else.)
    if (offTopic && context) {
      for (const unit of labelledUnits(pair.answer)) if (!isTalk(unit.text)) asides.push({ answer, text: withoutOpeningTalk(unit.text) });
      return;
    }
    const own = target >= 0 || lower(pair.question) === lower(firstQuestionOf(ctx));
    const firstAnswer = lower(pair.question) === lower(firstQuestionOf(ctx)) || lower(pair.question) === lower(GENERIC_FIRST_QUESTION);
    for (const unit of labelledUnits(pair.answer)) {
      let label = unit.label;
      let text = withoutOpeningTalk(unit.text);
      // What the user takes back goes ("scratch that", "let's not do the waitlist"); what they say instead stays.
      const taken = label ? undefined : retractionOf(text);
      if (taken) {
        const gone =
          taken.kind === "previous" ? facts.slice(-1).filter((f) => f.answer >= 0) : facts.filter((f) => f.answer >= 0 && mentions(f.text, taken.subject));
        for (const f of gone) facts.splice(facts.indexOf(f), 1);
        retracted.push(...gone.map((f) => ({ answer, text: f.text })));
        if (taken.kind === "subject") {
          // A decision: what was dropped is a non-goal, in the user's words.
          const outPlan = placeStatement(taken.subject, "out", target, false, plans);
          facts.push({
            text: `${ucFirst(taken.subject)} (decided against in the interview).`,
            answer,
            sections: outPlan.sections,
            covers: [],
            thin: false,
            label: "out",
          });
        }
        if (!taken.rest) continue;
        // What is said instead takes the place of what it replaces.
        text = taken.rest;
        label = gone[0]?.label;
        const { sections, covers } = gone[0] ?? placeStatement(text, label, target, firstAnswer, plans);
        facts.push({ text, answer, sections, covers: thin ? [] : covers, thin, ...(label ? { label } : {}) });
        continue;
      }
      // Talk is not content: "Good question." is not written; "OK so the clinic…" loses its "OK so".
      if (isTalk(text)) continue;
      // A sentence about nothing the project or the question names is left out, and the builder says so.
      if (!label && context && isAside(text, context, live, plans[target])) {
        asides.push({ answer, text });
        continue;
      }
      const { sections, covers } = placeStatement(text, label, target, firstAnswer, plans);
      facts.push({
        text,
        answer,
        question: own ? undefined : pair.question.trim(),
        sections,
        covers: thin ? [] : covers,
        thin,
        ...(label ? { label } : {}),
        ...(offTopic ? { offTopic } : {}),
      });
    }
  }
  // Contradictions: asked until answered; an answer naming one side's value rules the others out.
  const settled = settle(
    facts.map((f) => f.text),
    settling,
  );
  for (const text of settled.ruledOut) {
    const at = facts.findIndex((f) => f.text === text);
    if (at >= 0) facts.splice(at, 1);
  }
  // The project's current PRD (imported or edited) fills the sections no answer covers, in its own words.
  const answered = new Set(facts.flatMap((f) => f.covers));
  for (const { plan, text } of documentFacts(ctx.document, plans)) {
    if (answered.has(plan)) continue;
    facts.push({ text, answer: -1, sections: [plan], covers: [plan], thin: false, fromDocument: true });
  }
  for (const f of facts) if (f.fromDocument) answered.add(f.sections[0]!);
  // The project description stands in for a section nothing else covers, when it clearly speaks to it.
  for (const text of answerUnits(ctx.projectDescription ?? "")) {
    const best = [...live].sort((a, b) => planScore(text, b) - planScore(text, a) || a.priority - b.priority)[0];
    if (!best || planScore(text, best) < 2 || answered.has(best.index)) continue;
    facts.push({ text, answer: -1, sections: [best.index], covers: [best.index], thin: false, fromDescription: true });
  }
  const coveredLive = new Set(facts.flatMap((f) => f.covers));
  const any = coveredLive.size > 0;
  const covered = plans.map((p) => (p.derived ? any : coveredLive.has(p.index)));
  return { plans, facts, targets, covered, asked, missed, asides, retracted, contradictions: settled.open, clarifications: settled.clarifications };
}

/** The plan whose title matches one of the given names, for callers that know the title. */
export const planNamed = (plans: SectionPlan[], title: string) => plans.find((p) => sameTitle(p.title, title));
