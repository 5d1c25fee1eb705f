import { words } from "~/utils/md-doc";
import { type Capability, actionOf, article, headNoun, lcFirst, participle, persona, singular, thingOf, trimEnd, ucFirst } from "./phrases";

/**
 * User stories from capabilities: "As a …, I want …, so that …" and
 * Given/When/Then criteria built from the requirement's own words. Used by
 * the PRD writer and the user-story tool.
 */

/** The fullest name of a role among the named personas ("clerk" → "AR clerk"), singular. */
export function richer(role: string | undefined, personas: string[]) {
  if (!role) return undefined;
  const noun = singular(role.split(" ").at(-1)!.toLowerCase());
  const match = personas.find((p) => singular(p.split(" ").at(-1)!.toLowerCase()) === noun) ?? role;
  return persona(match) ?? match;
}

/** "so that …" from a goal sentence, or a placeholder to confirm. */
export function benefitOf(goal: string | undefined) {
  if (!goal) return "[benefit to confirm]";
  const g = lcFirst(trimEnd(goal));
  return /^(?:cut|reduce|increase|raise|grow|improve|lower|decrease|lift|boost|get|make|save|stop|help|keep|double|halve)\b/i.test(g) ? `we ${g}` : g;
}

/** The goal that shares most words with a requirement (the first goal on a tie). */
export function pickGoal(requirement: string, goals: string[]) {
  const req = new Set(words(requirement).filter((w) => w.length > 3));
  let best = goals[0];
  let score = 0;
  for (const g of goals) {
    const s = words(g).filter((w) => req.has(w)).length;
    if (s > score) (best = g), (score = s);
  }
  return best;
}

const BOUNDARY = /\b(?:older than|newer than|more than|less than|fewer than|at least|at most|over|under|above|below|within|up to|after|before)\s+[^,.;]+/i;

/** Title, "As a …" line and Given/When/Then criteria of one story. */
export function story(cap: Capability, opts: { personas: string[]; goals: string[]; product: string; terse?: boolean }) {
  const who = richer(cap.role, opts.personas) ?? richer(opts.personas[0], opts.personas) ?? "user";
  const action = cap.verb ? `${cap.verb}${cap.object ? ` ${cap.object}` : ""}` : /^to /.test(cap.want) ? cap.want.slice(3) : `use ${cap.want}`;
  const plainAction = action.replace(/^the product to /, "");
  const title = ucFirst(actionOf(cap));
  const noun = headNoun(cap.object);
  const thing = thingOf(cap.object);
  const then = cap.verb && noun && thing ? `${thing} ${/s$/.test(noun) ? "are" : "is"} ${participle(cap.verb)} and I can see the result` : "the result is saved and shown to me";
  const criteria = [`Given I am ${article(who)} ${who} using ${opts.product}, When I ${plainAction}, Then ${then}.`];
  const edge = BOUNDARY.exec(cap.object)?.[0];
  if (edge && cap.verb) criteria.push(`Given an item that does not match “${trimEnd(edge)}”, When I ${cap.verb}${thing ? ` ${thing}` : ""}, Then it is left out.`);
  if (!opts.terse) criteria.push(`Given required information is missing or invalid, When I try to ${plainAction}, Then I see what to fix and nothing is changed.`);
  return {
    title: title.length > 70 ? `${title.slice(0, 67)}…` : title,
    who,
    asA: `As ${article(who)} ${who}, I want ${cap.want}, so that ${benefitOf(pickGoal(cap.source, opts.goals))}`,
    criteria,
  };
}
