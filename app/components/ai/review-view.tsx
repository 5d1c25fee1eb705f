import { TableScroll } from "~/components/table-scroll";
import type { Review } from "~/ai/schemas";
import { ScoreBars } from "./score-bars";

/** A coach review: overall score, dimension chart, summary, strengths, improvements, gaps and next steps. */
export function ReviewView({ review, model, createdAt }: { review: Review; model: string; createdAt?: string }) {
  return (
    <div className="review" data-testid="coach-review">
      <div className="inline">
        <span className="score-big">{Math.round(review.overallScore)}</span>
        <span className="muted">
          / 100 overall · {model === "builtin" ? "offline drafter (rule-based)" : model}
          {createdAt ? ` · ${new Date(createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}` : ""}
        </span>
      </div>
      <ScoreBars scores={review.dimensions} label="Coach scores by dimension" />
      <p>{review.executiveSummary}</p>
      <div className="split">
        {review.strengths.length ? (
          <div>
            <h3>Strengths</h3>
            <ul>
              {review.strengths.map((s, i) => (
                <li key={i}>{s}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {review.improvements.length ? (
          <div>
            <h3>Improvements</h3>
            <ul>
              {review.improvements.map((s, i) => (
                <li key={i}>
                  <span className={`badge ${s.priority === "high" ? "badge-danger" : s.priority === "medium" ? "badge-warning" : ""}`}>{s.priority}</span>{" "}
                  {s.suggestion}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
      {review.missingSections.length ? (
        <p>
          <strong>Missing sections:</strong> {review.missingSections.join(", ")}
        </p>
      ) : null}
      {review.recommendations.length ? (
        <>
          <h3>Recommended next steps</h3>
          <TableScroll label="Recommended next steps">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col">Effort</th>
                  <th scope="col">Impact</th>
                </tr>
              </thead>
              <tbody>
                {review.recommendations.map((r, i) => (
                  <tr key={i}>
                    <td>{r.description}</td>
                    <td>{r.effort}</td>
                    <td>{r.impact}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      ) : null}
    </div>
  );
}
