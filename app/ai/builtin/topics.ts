import { countWordStarts } from "~/utils/literal";
import type { Topic } from "./topic-cues";
import { DELIVERY_TOPICS } from "./topic-table-delivery";
import { PRODUCT_TOPICS } from "./topic-table-product";

/**
 * What each kind of PRD section needs: the keyword table behind the
 * interview (which question gathers a section) and the PRD writer (which
 * sentences of the answers belong in it). A section title maps to one or
 * more topics by its words; unknown titles get a generic topic built from
 * the title itself.
 * The table itself is in topic-table-product.ts and topic-table-delivery.ts.
 */

export { ROLE, type Topic } from "./topic-cues";

export const TOPICS: Topic[] = [...PRODUCT_TOPICS, ...DELIVERY_TOPICS];

const BY_ID = new Map(TOPICS.map((t) => [t.id, t]));
export const topic = (id: string) => BY_ID.get(id)!;

const STOP = new Set(["and", "the", "for", "with", "from", "into", "plan", "section", "notes", "details", "other", "key"]);

/** A topic for a section title the table does not know. */
function customTopic(title: string): Topic {
  const stems = (title.toLowerCase().match(/[a-z][a-z-]+/g) ?? [])
    .filter((w) => w.length > 3 && !STOP.has(w))
    .map((w) => w.slice(0, Math.max(4, w.length - 3)).replace(/[^a-z]/g, ""));
  return {
    id: `custom:${title}`,
    title: /$^/,
    question: `What should the ${title} section say?`,
    ask: `what the ${title} section should say`,
    hint: `Give the facts, names or numbers the ${title} section needs.`,
    cues: [],
    // The title's words are the user's text: matched as text, never compiled into a pattern.
    stems,
    priority: 6,
  };
}

/** Topics a section title needs, most specific first. */
export function topicsForTitle(title: string): Topic[] {
  const found = TOPICS.filter((t) => t.title.test(title));
  const dropped = new Set(found.flatMap((t) => t.overrides ?? []));
  // "Riskiest Assumptions" is a risk section, not a dependencies section.
  if (found.some((t) => t.id === "risks")) dropped.add("dependencies");
  // "Scope and Non-Goals" is not a goals section; "Architecture Overview" is not the overview.
  if (/non-goals?/i.test(title) && !/(?<!non-)\bgoals?\b/i.test(title)) dropped.add("goals");
  if (found.length > 1) dropped.add("overview");
  const kept = found.filter((t) => !dropped.has(t.id));
  kept.sort((a, b) => position(title, a) - position(title, b));
  return kept.length ? kept : [customTopic(title)];
}

function position(title: string, t: Topic) {
  const m = t.title.exec(title);
  return m ? m.index : 999;
}

/** How strongly a sentence speaks to a topic: cue hits, each counted at most twice. */
export function cueScore(text: string, t: Topic) {
  let score = 0;
  for (const cue of t.cues) {
    cue.lastIndex = 0;
    score += Math.min(2, text.match(cue)?.length ?? 0);
  }
  for (const stem of t.stems ?? []) score += countWordStarts(text, stem, 2);
  return score;
}
