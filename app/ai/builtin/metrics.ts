import { trimEnd } from "./phrases";

/**
 * Reading a goal's measure: "Cut no-shows from 18% to 9% by June 2027" is a
 * metric with a baseline, a target and a date. A goal is measurable when it
 * names a metric and a number with a baseline, a target or a date; a digit
 * alone ("we have 3 clinics") is not a measure.
 */

const AMOUNT = "\\$?[\\d.,]+\\s?(?:%|percent|[kmx]\\b|(?:ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|days?|weeks?|months?|points?|pts)\\b)?";
const METRIC_FROM = new RegExp(
  `^(?:(?:cut|reduce|increase|raise|grow|improve|lower|decrease|drop|lift|boost|bring|move|get)\\s+)?(.+?)\\s+from\\s+(${AMOUNT})\\s+to\\s+(${AMOUNT})(.*)$`,
  "i",
);
const METRIC_TO = new RegExp(
  `^(?:cut|reduce|increase|raise|grow|improve|lower|decrease|lift|boost|bring|move|get)\\s+(.+?)\\s+(?:to|below|above|under|over)\\s+(${AMOUNT})(.*)$`,
  "i",
);

/**
 * A cell the user gave no value for: a dash, asked about under Open Questions.
 * Not "Unknown", which reads as a value (and which the PRD check flags as a placeholder).
 */
export const NOT_STATED = "—";

export function metricRow(text: string) {
  const t = trimEnd(text);
  const from = METRIC_FROM.exec(t);
  const to = from ? null : METRIC_TO.exec(t);
  if (!from && !to) return null;
  const rest = (from ? from[4] : to![3]) ?? "";
  const when = /\b(?:within|by|in|over|before|after|per)\b.*/i.exec(rest)?.[0];
  return {
    metric: (from ? from[1] : to![1])!.trim(),
    baseline: from ? from[2]!.trim() : NOT_STATED,
    target: (from ? from[3] : to![2])!.trim(),
    when: when ? trimEnd(when) : NOT_STATED,
  };
}

/** "from 40 a month to 10": a baseline and a target. */
const FROM_TO = /\bfrom\b[^.;]*?\d[^.;]*?\bto\b[^.;]*?\d/i;
/** A direction or a bound with a number: "cut … to 9%", "under 2 seconds", "at least 95%". */
const DIRECTED =
  /\b(?:cut|reduce|increase|raise|grow|improve|lower|decrease|drop|lift|halve|double|below|under|above|over|at least|at most|no more than|fewer than|less than|more than|up to)\b[^.;]*?\d/i;
/** A number and a date: "10 by next summer", "95% within two quarters", "by June 2027". */
const DATED =
  /\d[^.;]*?\b(?:by|within|before|in)\s+(?:the\s+)?(?:end of|next|this|q[1-4]|january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|\d{4}|\d+\s+(?:days?|weeks?|months?|quarters?|years?)|one|two|three|four|six|twelve)\b/i;

/** Does the text state a measurable goal: a number with a baseline and target, a direction or bound, or a date? */
export function isMeasurable(text: string): boolean {
  return metricRow(text) !== null || FROM_TO.test(text) || DIRECTED.test(text) || DATED.test(text);
}
