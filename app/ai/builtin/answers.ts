import type { BuiltinContext, QaPair } from "./contract";
import { sameTitle } from "~/utils/md-doc";
import { answerUnits } from "./answer-units";
import { documentFacts } from "./document-facts";
import { isThin, isVague, roles } from "./phrases";
import { cueScore, type Topic, topicsForTitle } from "./topics";

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

/** The topic of a section a sentence speaks to most (the section's first topic on a tie). */
export function bestTopic(text: string, plan: SectionPlan): Topic {
  let best = plan.topics[0]!;
  let score = -1;
  for (const t of plan.topics) {
    const s = cueScore(text, t);
    if (s > score) (best = t), (score = s);
  }
  return best;
}

/** How strongly a sentence speaks to a section (its best topic). */
export const planScore = (text: string, plan: SectionPlan) => Math.max(0, ...plan.topics.map((t) => cueScore(text, t)));

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
  /** Said about nothing the outline asks (no cue of any section, no figure, no role). */
  offTopic?: boolean;
  /** From the project description, standing in for a section nobody answered. */
  fromDescription?: boolean;
  /** From the project's current PRD (an import, or the user's edits), for a section no answer covers. */
  fromDocument?: boolean;
}

/** An answer that speaks to no section: no cue of any, no figure, no role ("The weather was nice yesterday."). */
function isOffTopic(answer: string, live: SectionPlan[]) {
  if (/\d/.test(answer) || roles(answer).length) return false;
  return answerUnits(answer).every((u) => live.every((p) => planScore(u, p) === 0));
}

export interface Reading {
  plans: SectionPlan[];
  facts: Fact[];
  /** Per answer: the section its question targeted (-1 when none). */
  targets: number[];
  covered: boolean[];
  /** Sections already asked about (answered, or skipped after two thin answers). */
  asked: Set<number>;
}

export function readAnswers(pairs: QaPair[], plans: SectionPlan[], ctx: BuiltinContext): Reading {
  const facts: Fact[] = [];
  const targets: number[] = [];
  const asked = new Set<number>();
  const thinCount = new Map<number, number>();
  const live = plans.filter((p) => !p.derived);
  pairs.forEach((pair, answer) => {
    const target = targetOf(pair.question, plans, ctx);
    targets.push(target);
    const offTopic = !isThin(pair.answer) && isOffTopic(pair.answer, live);
    const thin = isThin(pair.answer) || offTopic;
    if (target >= 0) {
      const n = (thinCount.get(target) ?? 0) + (thin ? 1 : 0);
      thinCount.set(target, n);
      if (!thin || n >= 2) asked.add(target);
    }
    if (isVague(pair.answer)) return;
    const own = target >= 0 || lower(pair.question) === lower(firstQuestionOf(ctx));
    for (const text of answerUnits(pair.answer)) {
      const scores = new Map(live.map((p) => [p.index, planScore(text, p)]));
      const best = Math.max(0, ...scores.values());
      const bestPlans = best > 0 ? live.filter((p) => scores.get(p.index) === best).map((p) => p.index) : [];
      let sections: number[];
      let covers: number[];
      if (target < 0) {
        sections = bestPlans.slice(0, 2);
        covers = best >= 2 ? sections : [];
      } else {
        const mine = scores.get(target) ?? 0;
        if (mine === best || (mine === 0 && best < 2)) sections = covers = [target];
        else if (mine > 0) {
          sections = [target, ...bestPlans.slice(0, 1)];
          covers = best >= 4 ? sections : [target];
        } else sections = covers = bestPlans.slice(0, 2);
      }
      facts.push({
        text,
        answer,
        question: own ? undefined : pair.question.trim(),
        sections,
        covers: thin ? [] : covers,
        thin,
        ...(offTopic ? { offTopic } : {}),
      });
    }
  });
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
  return { plans, facts, targets, covered, asked };
}

/** The plan whose title matches one of the given names, for callers that know the title. */
export const planNamed = (plans: SectionPlan[], title: string) => plans.find((p) => sameTitle(p.title, title));
