import type { Roadmap } from "../schemas";
import { type Doc, plainInline } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";

/**
 * The timeline a PRD states ("GA 10 weeks after the pilot", "launch within
 * 3 months"), so the roadmap keeps to it: a plan whose length
 * contradicts the user's own date teaches them to distrust both.
 */

export interface StatedTimeline {
  weeks: number;
  /** The sentence that states it, quoted. */
  quote: string;
}

const RELEASE_TITLE = /\b(release|launch|rollout|roll-out|milestones?|timeline|phases|schedule|go-to-market)\b/i;
const SPAN = /\b(?:in|within|after|over|for|takes?)?\s*(\d{1,2})\s*(weeks?|months?)\b/gi;

/** The longest span the release sections state, in weeks; null when they state none. */
export function statedTimeline(doc: Doc): StatedTimeline | null {
  let best: StatedTimeline | null = null;
  for (const section of doc.sections.filter((s) => s.title && RELEASE_TITLE.test(s.title))) {
    for (const line of section.lines) {
      for (const sentence of sentences(plainInline(line.text))) {
        for (const m of sentence.matchAll(SPAN)) {
          const n = Number(m[1]);
          const weeks = /^month/i.test(m[2]!) ? Math.round(n * 4.33) : n;
          if (weeks >= 1 && weeks <= 104 && (!best || weeks > best.weeks)) best = { weeks, quote: sentence.trim() };
        }
      }
    }
  }
  return best;
}

type Phases = Roadmap["phases"];

/** Phase lengths scaled so the plan ends when the PRD says; every phase keeps at least one week. */
export function fitPhases(phases: Phases, weeks: number): Phases {
  const total = phases.reduce((n, p) => n + p.durationWeeks, 0);
  if (!phases.length || total === weeks || weeks < phases.length) return phases;
  const scaled = phases.map((p) => Math.max(1, Math.round((p.durationWeeks * weeks) / total)));
  // Rounding drift goes to (or comes from) the longest phase.
  let drift = weeks - scaled.reduce((n, d) => n + d, 0);
  while (drift !== 0) {
    const i = scaled.indexOf(Math.max(...scaled));
    if (drift < 0 && scaled[i]! <= 1) break;
    scaled[i]! += Math.sign(drift);
    drift -= Math.sign(drift);
  }
  let start = 1;
  return phases.map((p, i) => {
    const duration = scaled[i]!;
    const shift = (w: number) =>
      Math.min(start + duration - 1, Math.max(start, start + Math.round(((w - p.startWeek) * duration) / Math.max(1, p.durationWeeks))));
    const out = { ...p, startWeek: start, durationWeeks: duration, milestones: p.milestones.map((m) => ({ ...m, week: shift(m.week) })) };
    start += duration;
    return out;
  });
}
