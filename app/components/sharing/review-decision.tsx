import { DateTime } from "../project-badges";

/** What a review decision record needs (a stakeholder view as the API presents it). */
export interface ReviewRecord {
  reviewStatus: "pending" | "approved" | "rejected" | null;
  resolvedByName: string | null;
  resolvedAt: string | null;
  resolvedVia: "personal_link" | "share_link" | null;
  resolvedByEmail: string | null;
  feedback: string | null;
}

const LABEL = { pending: "Waiting for a decision", approved: "Approved", rejected: "Changes requested" } as const;
const TONE = { pending: "badge-warning", approved: "badge-success", rejected: "badge-danger" } as const;

export function ReviewStatusBadge({ status }: { status: ReviewRecord["reviewStatus"] }) {
  if (!status) return <span className="muted">View only</span>;
  return <span className={`badge ${TONE[status]}`}>{LABEL[status]}</span>;
}

/** Through which link a decision came, and how far its name can be trusted. */
export function decisionChannel(r: Pick<ReviewRecord, "resolvedVia" | "resolvedByEmail">) {
  if (r.resolvedVia === "personal_link") {
    return r.resolvedByEmail ? `personal review link, confirmed by e-mail (${r.resolvedByEmail})` : "personal review link";
  }
  if (r.resolvedVia === "share_link") return "share link: name given on the share link, not verified";
  return null;
}

/** Who decided, when, through which link, and their feedback; nothing while the review is pending. */
export function ReviewDecision({ review }: { review: ReviewRecord }) {
  if (!review.reviewStatus || review.reviewStatus === "pending" || !review.resolvedAt) return null;
  const channel = decisionChannel(review);
  const who = review.resolvedByName ?? (review.resolvedVia === "personal_link" ? "the reviewer" : "an unnamed visitor");
  return (
    <div className="review-decision">
      <p>
        {LABEL[review.reviewStatus]} by <strong>{who}</strong> on <DateTime iso={review.resolvedAt} />
        {channel ? <span className="muted"> · {channel}</span> : null}
      </p>
      {review.feedback ? <blockquote className="review-feedback">{review.feedback}</blockquote> : null}
    </div>
  );
}
