import { Link } from "@remix-run/react";
import { plural } from "~/utils/plural";
import { type ReviewRecord, ReviewDecision, ReviewStatusBadge } from "../sharing/review-decision";

export type ReviewSummaryItem = ReviewRecord & { id: string; name: string; stakeholderName: string | null };

/**
 * The project overview's Reviews line: how many stakeholder reviews are
 * approved, want changes or wait, and who decided what, when, through which
 * link, with their feedback. Nothing when the project has no review request.
 */
export function ReviewsSummary({ projectId, reviews }: { projectId: string; reviews: ReviewSummaryItem[] }) {
  if (!reviews.length) return null;
  const count = (status: ReviewRecord["reviewStatus"]) => reviews.filter((r) => r.reviewStatus === status).length;
  const counts = [
    { n: count("approved"), text: "approved", tone: "badge-success" },
    { n: count("rejected"), text: "changes requested", tone: "badge-danger" },
    { n: count("pending"), text: "waiting", tone: "badge-warning" },
  ].filter((c) => c.n > 0);
  return (
    <section className="card reviews-summary" aria-labelledby="reviews-summary-heading">
      <div className="card-header">
        <h2 id="reviews-summary-heading">Reviews</h2>
        <Link to={`/projects/${projectId}/sharing`}>Manage reviews</Link>
      </div>
      <p className="reviews-counts">
        <span className="sr-only">{plural(reviews.length, "review request")}: </span>
        {counts.map((c) => (
          <span key={c.text} className={`badge ${c.tone}`}>
            {c.n} {c.text}
          </span>
        ))}
      </p>
      <ul>
        {reviews.map((r) => (
          <li key={r.id}>
            <span>
              <strong>{r.name}</strong>
              {r.stakeholderName ? <span className="muted"> · {r.stakeholderName}</span> : null} <ReviewStatusBadge status={r.reviewStatus} />
            </span>
            <ReviewDecision review={r} />
          </li>
        ))}
      </ul>
    </section>
  );
}
