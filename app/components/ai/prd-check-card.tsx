import { plural } from "~/utils/plural";
type Issue = { id: string; rule: string; severity: "high" | "medium" | "low"; section: string | null; line: number | null; message: string };
type Check = {
  issues: Issue[];
  counts: { high: number; medium: number; low: number };
  /** All issues found; the list holds the first 500 (app/prd-rules/issues.ts). */
  totalIssues?: number;
  partial?: boolean;
  checkedLines?: number;
  sections: { missing: string[]; expected: string[] };
};

const RULE_LABELS: Record<string, string> = {
  missing_section: "Missing section",
  empty_section: "Empty section",
  goal_without_number: "Goal without a number",
  vague_word: "Vague wording",
  story_without_acceptance: "Story without acceptance criteria",
  open_todo: "Open TODO",
  placeholder: "Placeholder",
};

/** The rule-based PRD check beside the editor: instant, offline, no AI. */
export function PrdCheckCard({ check, template }: { check: Check; template: { name: string } | null }) {
  const total = check.totalIssues ?? check.issues.length;
  const shown = check.issues.slice(0, 12);
  return (
    <section className="card" aria-labelledby="check-heading">
      <h2 id="check-heading">PRD check</h2>
      <p className="muted">
        {total === 0 ? "No issues found." : `${plural(total, "issue")}: ${check.counts.high} high, ${check.counts.medium} medium, ${check.counts.low} low.`}{" "}
        Rule-based, against {template ? `the “${template.name}” template` : "a standard PRD outline"}.
      </p>
      {shown.length ? (
        <ul className="check-list">
          {shown.map((issue) => (
            <li key={issue.id} className={issue.severity}>
              <strong>{RULE_LABELS[issue.rule] ?? issue.rule}</strong>
              {issue.line ? <span className="muted"> · line {issue.line}</span> : null}
              <br />
              <span>{issue.message}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {total > shown.length ? <p className="muted">…and {total - shown.length} more.</p> : null}
      {check.partial ? <p className="muted">This PRD is too long to check in full: the check stopped after line {check.checkedLines}.</p> : null}
    </section>
  );
}
