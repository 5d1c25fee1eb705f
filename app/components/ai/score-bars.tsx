import { DIMENSION_LABELS, DIMENSIONS, type Dimension } from "~/ai/schemas";

const band = (n: number) => (n >= 75 ? "high" : n >= 50 ? "mid" : "low");

/** The six quality dimensions as a bar chart (plain HTML, readable without JavaScript and by screen readers). */
export function ScoreBars({ scores, label }: { scores: Record<Dimension, number>; label: string }) {
  return (
    <div className="score-bars" role="list" aria-label={label}>
      {DIMENSIONS.map((d) => {
        const value = Math.round(scores[d]);
        return (
          <div className="score-bar" role="listitem" key={d}>
            <span>{DIMENSION_LABELS[d]}</span>
            <span className="track" aria-hidden="true">
              <span className={`fill ${band(value)}`} style={{ width: `${value}%`, display: "block" }} />
            </span>
            <strong>
              {value}
              <span className="sr-only"> out of 100</span>
            </strong>
          </div>
        );
      })}
    </div>
  );
}
