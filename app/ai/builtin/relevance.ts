import { contentWords } from "~/ai/nlp/words";
import { answerUnits, labelledUnits } from "./answer-units";
import type { SectionPlan } from "./answers";
import type { BuiltinContext, QaPair } from "./contract";
import { isTalk, withoutOpeningTalk } from "./chatter";
import { roles } from "./phrases";
import { planScore } from "./placement";

/** Is a statement about this project at all? Asides and off-topic answers (issue 34). */

/** What the project is about so far: the content words of its name, description, the question and the answers before. */
export function contextWords(ctx: BuiltinContext, question: string, before: QaPair[]) {
  const text = [ctx.projectName ?? "", ctx.projectDescription ?? "", question, ...before.map((p) => p.answer)].join("\n");
  return new Set(contentWords(text));
}

/**
 * An aside: a sentence that shares no content word with the project and the
 * question, names no figure and no role, and speaks to no section ("My
 * cousin loves this kind of thing.").
 */
export function isAside(text: string, context: Set<string>, live: SectionPlan[], target: SectionPlan | undefined) {
  // A cue of the question's own section, or two of another's, is enough to keep it.
  if (/\d/.test(text) || roles(text).length || (target && planScore(text, target) > 0) || live.some((p) => planScore(text, p) >= 2)) return false;
  const own = contentWords(text);
  return own.length > 0 && !own.some((w) => context.has(w));
}

/** An answer that speaks to no section: no cue of any, no figure, no role ("The weather was nice yesterday."). */
export function speaksToNoSection(answer: string, live: SectionPlan[]) {
  if (/\d/.test(answer) || roles(answer).length) return false;
  return answerUnits(answer).every((u) => live.every((p) => planScore(u, p) === 0));
}

/** An answer that is all talk and asides ("The weather was nice yesterday."). */
export function isOffTopic(answer: string, context: Set<string>, live: SectionPlan[], target: SectionPlan | undefined) {
  const units = labelledUnits(answer);
  return units.length > 0 && units.every((u) => !u.label && (isTalk(u.text) || isAside(withoutOpeningTalk(u.text), context, live, target)));
}
