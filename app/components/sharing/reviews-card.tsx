import type { ReactNode } from "react";
import { TableScroll } from "~/components/table-scroll";
import { CopyButton } from "../copy-button";
import type { FormState } from "../forms";
import { PostButton } from "../post-button";
import { DateTime } from "../project-badges";
import { type ReviewRecord, ReviewDecision, ReviewStatusBadge } from "./review-decision";
import { ReviewRequestForm } from "./review-request-form";

type View = ReviewRecord & {
  id: string;
  name: string;
  kind: "view" | "review" | "ai_review";
  stakeholderName: string | null;
  stakeholderEmail: string | null;
  audience: string | null;
  personalLinkOnly: boolean;
  reviewUrl: string | null;
  linkSentAt: string | null;
};

/**
 * The sharing page's stakeholder reviews: each request with its decision
 * record and, for those who manage the project, the reviewer's personal link
 * (copy, send again); other stakeholder views; the request form.
 */
export function StakeholderReviewsCard({
  views,
  canManage,
  notice,
  failure,
}: {
  views: View[];
  canManage: boolean;
  notice: ReactNode;
  failure: FormState | null;
}) {
  const reviews = views.filter((v) => v.reviewStatus !== null);
  const others = views.filter((v) => v.reviewStatus === null);
  return (
    <section className="card" aria-labelledby="views-heading">
      <h2 id="views-heading">Stakeholder reviews</h2>
      <p className="muted">
        Ask a named stakeholder to approve the PRD or request changes. Each request has its own personal link: they need no account, and their decision is
        recorded under their name.
      </p>
      {notice}
      {reviews.length === 0 ? (
        <p className="muted">No review requests yet.</p>
      ) : (
        <ul className="review-requests" aria-label="Review requests">
          {reviews.map((v) => (
            <ReviewRequest key={v.id} view={v} canManage={canManage} />
          ))}
        </ul>
      )}
      {others.length ? <OtherViews views={others} canManage={canManage} /> : null}
      {canManage ? <ReviewRequestForm failure={failure} /> : null}
    </section>
  );
}

function ReviewRequest({ view: v, canManage }: { view: View; canManage: boolean }) {
  const reviewer = [v.stakeholderName, v.audience].filter(Boolean).join(", ") || "Unnamed reviewer";
  const linkId = `review-link-${v.id}`;
  return (
    <li className="review-request">
      <div className="review-request-head">
        <h3>{v.name}</h3>
        <ReviewStatusBadge status={v.reviewStatus} />
      </div>
      <p style={{ margin: 0 }}>
        Reviewer: <strong>{reviewer}</strong>
        {v.stakeholderEmail ? <span className="muted"> · {v.stakeholderEmail}</span> : null}
      </p>
      <ReviewDecision review={v} />
      {canManage && v.reviewUrl ? (
        <div className="secret-box">
          <label htmlFor={linkId}>Personal link</label>
          <input id={linkId} readOnly value={v.reviewUrl} data-testid="review-url" />
          <CopyButton value={v.reviewUrl} />
        </div>
      ) : null}
      <p className="review-link-status">
        {v.linkSentAt ? (
          <>
            E-mailed to the reviewer on <DateTime iso={v.linkSentAt} />.{" "}
          </>
        ) : canManage ? (
          "Not e-mailed: copy the link and send it yourself, or send it by e-mail. "
        ) : null}
        {v.personalLinkOnly ? "Only this link can decide." : "The share link can decide it too, under a name the visitor types."}
      </p>
      {canManage ? (
        <div className="review-request-actions">
          {v.stakeholderEmail ? (
            <PostButton
              intent="view-send-link"
              fields={{ viewId: v.id }}
              className="btn btn-secondary btn-sm"
              label={`${v.linkSentAt ? "Send again" : "Send by e-mail"}: the link for ${v.name} to ${v.stakeholderEmail}`}
            >
              {v.linkSentAt ? "Send again" : "Send by e-mail"}
            </PostButton>
          ) : null}
          <PostButton intent="view-delete" fields={{ viewId: v.id }} label={`Delete the review request ${v.name}`}>
            Delete
          </PostButton>
        </div>
      ) : null}
    </li>
  );
}

function OtherViews({ views, canManage }: { views: View[]; canManage: boolean }) {
  return (
    <>
      <h3>Other stakeholder views</h3>
      <TableScroll label="Stakeholder views">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Stakeholder</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {views.map((v) => (
              <tr key={v.id}>
                <td>{v.name}</td>
                <td>{[v.stakeholderName, v.stakeholderEmail].filter(Boolean).join(" · ") || "—"}</td>
                <td>
                  {canManage ? (
                    <PostButton intent="view-delete" fields={{ viewId: v.id }} label={`Delete ${v.name}`}>
                      Delete
                    </PostButton>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
