import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { PostButton } from "../post-button";
import { TableScroll } from "~/components/table-scroll";

const REVIEW_TONE: Record<string, string> = { pending: "badge-warning", approved: "badge-success", rejected: "badge-danger" };

export function StakeholderReviewsCard({ views, canManage, notice }: { views: { id: string; name: string; stakeholderName: string | null; stakeholderEmail: string | null; reviewStatus: string | null; resolvedByName: string | null; feedback: string | null }[]; canManage: boolean; notice: ReactNode }) {
  return (
    <section className="card" aria-labelledby="views-heading">
      <h2 id="views-heading">Stakeholder reviews</h2>
      <p className="muted">Ask a stakeholder to approve or reject the PRD. They answer on the share link, without an account.</p>
      {notice}
      {views.length === 0 ? (
        <p className="muted">No stakeholder views yet.</p>
      ) : (
        <TableScroll label="Stakeholder reviews">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Stakeholder</th>
                <th scope="col">Review</th>
                <th scope="col">Feedback</th>
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
                    {v.reviewStatus ? <span className={`badge ${REVIEW_TONE[v.reviewStatus]}`}>{v.reviewStatus}</span> : <span className="muted">view only</span>}
                    {v.resolvedByName ? <div className="muted">by {v.resolvedByName}</div> : null}
                  </td>
                  <td>{v.feedback ?? "—"}</td>
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
      )}
      {canManage ? (
        <Form method="post" className="form" style={{ marginTop: 12, maxWidth: 620 }}>
          <input type="hidden" name="intent" value="view-create" />
          <input type="hidden" name="requestReview" value="true" />
          <div className="form-row">
            <div className="field" style={{ flex: 1 }}>
              <label htmlFor="view-name">Review name</label>
              <input id="view-name" name="name" required placeholder="Legal sign-off" />
            </div>
            <div className="field" style={{ flex: 1 }}>
              <label htmlFor="view-stakeholder">Stakeholder</label>
              <input id="view-stakeholder" name="stakeholderName" placeholder="Dana (Legal)" />
            </div>
          </div>
          <div>
            <button type="submit" className="btn btn-secondary btn-sm">
              Request review
            </button>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
