import { ucFirst } from "./phrases";

/**
 * Explicit labels in a builder answer (issue 34): "Out of scope:", "Risk:",
 * "Must:", "Release plan:", a "Non-goals" heading over a list, "We will not
 * build …". A labelled statement goes to the section its label names, never
 * where a keyword guess would put it: the user said where it belongs.
 * These patterns are constants of the product, never built from user text.
 */

export type LabelKind = "out" | "in" | "risk" | "must" | "should" | "could" | "release" | "dependency" | "open" | "goal" | "problem" | "users" | "requirement";

/** The topic (topic-table-*.ts) a label's statements belong to. */
export const LABEL_TOPIC: Record<LabelKind, string> = {
  out: "scope",
  in: "scope",
  risk: "risks",
  must: "requirements",
  should: "requirements",
  could: "requirements",
  release: "release",
  dependency: "dependencies",
  open: "open",
  goal: "goals",
  problem: "problem",
  users: "users",
  requirement: "requirements",
};

/** The label words of each kind, as they open a heading ("Out of scope") or a labelled line ("Out of scope: …"). */
const NAMES: [LabelKind, string][] = [
  [
    "out",
    "out[ -]of[ -]scope|not in scope|not doing|not included|non[ -]?goals?|won'?t[ -](?:do|have)|will not do|excluded|exclusions?|later|not now|not in v1|deferred|future|v2|phase 2 \\(later\\)",
  ],
  ["in", "in[ -]scope|mvp|v1|scope|included"],
  ["risk", "risks?|concerns?|(?:the )?(?:biggest|main|key|top|major) risks?|risks? and mitigations?"],
  ["must", "must(?:[ -]have)?|p0|required"],
  ["should", "should(?:[ -]have)?|p1"],
  ["could", "could(?:[ -]have)?|nice[ -]to[ -]have|p2|optional"],
  ["release", "release(?: plan)?|rollout(?: plan)?|launch(?: plan)?|timeline|milestones?|phases?|phase \\d+|pilot|beta|ga"],
  ["dependency", "dependenc(?:y|ies)|depends on|blocked by|prerequisites?|assumptions?"],
  ["open", "open(?: questions?| issues?)?|questions?|unknowns?|tbd|to decide|undecided"],
  ["goal", "goals?|objectives?|success(?: metrics?| criteria)?|metrics?|kpis?|north star"],
  ["problem", "problem(?: statement)?|pain(?: points?)?"],
  ["users", "users?|personas?|audience|target users?|customers?"],
  ["requirement", "requirements?|features?|functional requirements?"],
];

const HEADING = NAMES.map(
  ([kind, names]) => [kind, new RegExp(`^(?:#{1,6}\\s*)?(?:\\*\\*|__)?(?:${names})(?:\\*\\*|__)?\\s*:?\\s*(?:\\*\\*|__)?$`, "i")] as const,
);
const LEAD = NAMES.map(
  ([kind, names]) =>
    [kind, new RegExp(`^(?:\\*\\*|__)?[\\[(]?(?:${names})[\\])]?(?:\\*\\*|__)?\\s*(?::|–|—|-(?=\\s))\\s*(?:\\*\\*|__)?\\s*(?=\\S)`, "i")] as const,
);

/** Sentences that label themselves by how they open; the sentence is kept as written. */
const SELF: [LabelKind, RegExp][] = [
  [
    "out",
    /^(?:we|i)\s+(?:will not|won't|are not going to|aren't going to|do not want to|don't want to|will never)\s+(?:build|do|support|include|offer|handle|ship|add|cover|provide|make)\b/i,
  ],
  ["out", /^not (?:doing|building|supporting|including|shipping)\b/i],
  ["out", /\b(?:is|are) (?:out of scope|not in scope|a non-goal|non-goals)\b/i],
  ["risk", /^(?:the |a |one |our )?(?:biggest|main|key|top|major|real|other)?\s?risks? (?:is|are|would be|here is)\b/i],
];

/** A line that is only a label ("Out of scope:", "## Risks", "**Non-goals**"): the kind of what follows it. */
export function headingLabel(line: string): LabelKind | undefined {
  const text = line.trim();
  if (!text || text.length > 40) return undefined;
  return HEADING.find(([, re]) => re.test(text))?.[0];
}

/**
 * A statement's label, and its text without a leading label ("Must: send
 * reminders" → must, "Send reminders"); `written` when the label was written
 * out ("Must:"), not read from how the sentence opens ("We will not build …").
 */
export function leadLabel(text: string): { kind: LabelKind; text: string; written: boolean } | undefined {
  for (const [kind, re] of LEAD) {
    const m = re.exec(text);
    if (m) return { kind, text: ucFirst(text.slice(m[0].length).trim()), written: true };
  }
  const self = SELF.find(([, re]) => re.test(text));
  return self ? { kind: self[0], text, written: false } : undefined;
}
