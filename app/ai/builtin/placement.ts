import type { SectionPlan } from "./answers";
import { LABEL_TOPIC, type LabelKind } from "./labels";
import { roles } from "./phrases";
import { cueScore, type Topic } from "./topics";

/** Where a statement of a builder answer goes: its label, its question, or (for no known question) its cues. */

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

/** The section a label sends its statements to: the first whose topics include the label's (an "out" label also finds a "Non-Goals" section). */
function labelPlan(label: LabelKind, live: SectionPlan[]): number | undefined {
  const id = LABEL_TOPIC[label];
  return (live.find((p) => p.topics[0]!.id === id) ?? live.find((p) => p.topics.some((t) => t.id === id)))?.index;
}

/**
 * The sections a statement of an answer goes to, and those it counts as
 * covering. A label the user wrote decides ("Out of scope:", "Risk:",
 * "Must:"). Otherwise the statement belongs to the section its question
 * asked for: only one with nothing for that section and plain cues for
 * others goes there instead (the two closest at most), and the question
 * stays open, so the interview asks it again. The first question also asks
 * who has the problem: a sentence about them is for the users' section too.
 * For a question the drafter did not ask (a provider's, the user's own), the
 * section the statement speaks to most.
 */
export function placeStatement(text: string, label: LabelKind | undefined, target: number, firstAnswer: boolean, plans: SectionPlan[]) {
  const live = plans.filter((p) => !p.derived);
  const labelled = label ? labelPlan(label, label === "open" ? plans : live) : undefined;
  if (labelled !== undefined) return { sections: [labelled], covers: [labelled] };
  const scores = new Map(live.map((p) => [p.index, planScore(text, p)]));
  const best = Math.max(0, ...scores.values());
  if (target < 0) {
    const sections =
      best > 0
        ? live
            .filter((p) => scores.get(p.index) === best)
            .map((p) => p.index)
            .slice(0, 2)
        : [];
    return { sections, covers: best >= 2 ? sections : [] };
  }
  // The first question asks for the problem, who has it and how they cope today: its answer is never moved.
  const elsewhere =
    !firstAnswer && (scores.get(target) ?? 0) === 0 && best >= 2
      ? live
          .filter((p) => scores.get(p.index)! >= best - 1)
          .sort((a, b) => scores.get(b.index)! - scores.get(a.index)! || a.index - b.index)
          .slice(0, 2)
          .map((p) => p.index)
      : [];
  if (elsewhere.length) return { sections: elsewhere, covers: elsewhere };
  const usersPlan = live.find((p) => p.topics[0]!.id === "users");
  if (firstAnswer && usersPlan && usersPlan.index !== target && roles(text).length && planScore(text, usersPlan) > 0)
    return { sections: [target, usersPlan.index], covers: [target, usersPlan.index] };
  return { sections: [target], covers: [target] };
}
