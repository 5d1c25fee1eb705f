import { shorten } from "~/utils/md-doc";

/**
 * The issues of a PRD check, collected under a cap (issue 33): every issue
 * is counted, but only the ones that can still be among the first
 * `maxIssues` (most severe first, then by line) are kept and given an id and
 * a message, so a document with 100,000 vague lines costs no more memory
 * than one with 500. The first `maxIssues` of the kept ones, in order, are
 * exactly the first `maxIssues` of all of them: each rule reports its
 * issues line by line, so a rule's issues after its first `maxIssues`
 * (and those on the same line as the last of them) cannot be among them.
 */

export type CheckRule = "missing_section" | "empty_section" | "goal_without_number" | "vague_word" | "story_without_acceptance" | "open_todo" | "placeholder";
export type Severity = "high" | "medium" | "low";

export interface CheckIssue {
  id: string;
  rule: CheckRule;
  severity: Severity;
  section: string | null;
  line: number | null;
  message: string;
  excerpt: string | null;
}

export const SEVERITY: Record<CheckRule, Severity> = {
  missing_section: "high",
  empty_section: "medium",
  goal_without_number: "medium",
  story_without_acceptance: "medium",
  placeholder: "medium",
  vague_word: "low",
  open_todo: "low",
};
const RULE_ORDER: CheckRule[] = Object.keys(SEVERITY) as CheckRule[];
const SEVERITY_RANK: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

/** Issues returned at most, unless the caller asks for another number. */
export const MAX_ISSUES = 500;

function hash(text: string) {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = ((h << 5) + h + text.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

/** An issue counted and kept: its id and message are made only if it is sorted or returned. */
interface Kept {
  rule: CheckRule;
  severity: Severity;
  line: number | null;
  section: string | null;
  excerpt: string | null;
  message: string;
  id?: string;
}

const idOf = (k: Kept) => (k.id ??= `${k.rule}-${k.line ?? 0}-${hash(`${k.section ?? ""}|${k.excerpt ?? k.message}`)}`);

export class IssueList {
  readonly counts: Record<Severity, number> = { high: 0, medium: 0, low: 0 };
  total = 0;
  private readonly kept = new Map<CheckRule, Kept[]>();

  constructor(private readonly max: number) {}

  /**
   * Counts an issue; true when it may be among the first `max`, and the
   * caller then `keep`s it (so its message is made only then).
   */
  count(rule: CheckRule, line: number | null) {
    this.total++;
    this.counts[SEVERITY[rule]]++;
    const list = this.kept.get(rule);
    return !list || list.length < this.max || (this.max > 0 && (line ?? 0) === (list[list.length - 1]!.line ?? 0));
  }

  keep(rule: CheckRule, line: number | null, section: string | null, excerpt: string | null, message: string) {
    let list = this.kept.get(rule);
    if (!list) this.kept.set(rule, (list = []));
    if (this.max > 0) list.push({ rule, severity: SEVERITY[rule], line, section, excerpt, message });
  }

  add(rule: CheckRule, line: number | null, section: string | null, excerpt: string | null, message: string) {
    if (this.count(rule, line)) this.keep(rule, line, section, excerpt, message);
  }

  /** The first `max` issues: most severe first, then by line, rule and id. */
  sorted(): CheckIssue[] {
    const all = [...this.kept.values()].flat();
    all.sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
        (a.line ?? 0) - (b.line ?? 0) ||
        RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule) ||
        idOf(a).localeCompare(idOf(b)),
    );
    return all.slice(0, this.max).map((k) => ({
      id: idOf(k),
      rule: k.rule,
      severity: k.severity,
      section: k.section,
      line: k.line,
      message: k.message,
      excerpt: k.excerpt === null ? null : shorten(k.excerpt, 120),
    }));
  }
}
