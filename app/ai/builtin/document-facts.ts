import { readDoc, sameTitle } from "~/utils/md-doc";
import type { SectionPlan } from "./answers";
import { statements } from "./prd-facts";
import { isPlaceholder, placeholderPhrase } from "~/prd-rules/rules";
import { topicsForTitle } from "./topics";

/**
 * What the project's current PRD already says, section by section (issue
 * 21): an imported document or a draft the user has edited is read before
 * anything is asked, so the builder asks only what it lacks and a
 * regenerated PRD keeps the user's words. Only sections whose title matches
 * a section of the outline (by name or by topic) are read; the drafter's
 * own scaffolding (open questions, placeholders, the import note) is not
 * content. A draft the drafter wrote itself (it carries the "_Draft · …_"
 * line) is not read back: regenerating means writing it again from the
 * answers, and the previous version stays in the history.
 */

const SCAFFOLD =
  /^(?:_?open question:?_?|_?draft ·|_?outline ·|_?imported from|_?following your saved preferences|\*\*raised in the interview|no open questions came up)/i;

export function documentFacts(document: string | undefined, plans: SectionPlan[]): { plan: number; text: string }[] {
  // A draft this drafter wrote is regenerated from the answers, not read back into itself.
  if (!document?.trim() || /^_(?:Draft|Outline) · /m.test(document)) return [];
  const live = plans.filter((p) => !p.derived);
  const out: { plan: number; text: string }[] = [];
  for (const section of readDoc(document).sections) {
    if (!section.title) continue;
    const main = topicsForTitle(section.title)[0]?.id;
    const plan = live.find((p) => sameTitle(p.title, section.title)) ?? live.find((p) => p.topics[0]?.id === main && !main?.startsWith("custom:"));
    if (!plan) continue;
    for (const text of statements(section)) {
      if (SCAFFOLD.test(text.trim()) || isPlaceholder(text) || placeholderPhrase(text)) continue;
      out.push({ plan: plan.index, text });
    }
  }
  return out;
}
