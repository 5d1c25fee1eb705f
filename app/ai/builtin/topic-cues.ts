/** The cue patterns the topic table is written with: constant patterns, never user text. */

export interface Topic {
  id: string;
  /** Matches section titles that need this topic. */
  title: RegExp;
  /** Topics this one replaces when both match one title. */
  overrides?: string[];
  /** The question that gathers the section. */
  question: string;
  /** The same need as a short clause, for sections that combine topics. */
  ask: string;
  /** What a specific answer contains; used when an answer is too thin. */
  hint: string;
  /** Cues that a sentence speaks to this topic. */
  cues: RegExp[];
  /** Word beginnings that cue a topic made from a section title (user text, matched as text). */
  stems?: string[];
  /** Lower is asked first. */
  priority: number;
  /** Written from the other sections; never asked. */
  derived?: boolean;
}

/** Words naming people who use or buy a product. */
export const ROLE =
  /\b(?:users?|customers?|clients?|personas?|buyers?|admins?|administrators?|managers?|clerks?|controllers?|analysts?|developers?|engineers?|designers?|marketers?|teams?|staff|employees?|operators?|agents?|owners?|members?|students?|teachers?|patients?|doctors?|nurses?|clinicians?|drivers?|riders?|merchants?|sellers?|shoppers?|visitors?|subscribers?|accountants?|recruiters?|candidates?|partners?|vendors?|consumers?|reps?|founders?|executives?|leads?|reviewers?|approvers?|editors?|authors?|readers?|parents?|receptionists?|hygienists?|dentists?|pharmacists?|therapists?|technicians?|coordinators?|planners?|dispatchers?|cashiers?|tenants?|landlords?|guests?|hosts?|travell?ers?|investors?|lawyers?|paralegals?|auditors?|supervisors?|volunteers?|coaches?|freelancers?|contractors?|workers?|instructors?|learners?|researchers?|specialists?|representatives?|residents?|physicians?|caregivers?|carers?|pms?|cfos?|ctos?|ceos?|sales ?people|salespeople)\b/gi;

/** Patterns that match at the start of a word, case-insensitively. */
export const cues = (...alts: string[]) => alts.map((a) => new RegExp(`(?:^|[^a-z0-9])(?:${a})`, "gi"));

export const PERF = cues(
  "latency",
  "performance",
  "fast",
  "\\d+\\s?ms\\b",
  "seconds?\\b",
  "p9[059]",
  "throughput",
  "requests? per",
  "per second",
  "concurrent",
  "peak",
  "load",
  "scal",
  "uptime",
  "availability",
  "99\\.",
);
export const SEC = cues(
  "secur",
  "privacy",
  "private",
  "gdpr",
  "hipaa",
  "soc ?2",
  "pii",
  "personal data",
  "encrypt",
  "permission",
  "rbac",
  "role-based",
  "sso",
  "saml",
  "audit",
  "access control",
  "compliance",
  "consent",
);
export const A11Y = cues("accessib", "wcag", "screen reader", "voiceover", "talkback", "contrast", "keyboard", "a11y");
