import { TableScroll } from "~/components/table-scroll";
import type { Roadmap } from "~/ai/schemas";

/** A roadmap as a week-based timeline (phases as bars, milestones as diamonds) with its tasks. */
export function RoadmapTimeline({ roadmap }: { roadmap: Roadmap }) {
  const weeks = Math.max(roadmap.totalWeeks, ...roadmap.phases.map((p) => p.startWeek + p.durationWeeks - 1));
  const pos = (week: number) => `${((week - 1) / weeks) * 100}%`;
  return (
    <div data-testid="roadmap">
      <h3>{roadmap.title}</h3>
      <p className="muted">
        {roadmap.totalWeeks} weeks · {roadmap.methodology} · {roadmap.teamSize} team
      </p>
      {roadmap.summary ? <p>{roadmap.summary}</p> : null}
      <div className="timeline" role="table" aria-label="Roadmap timeline">
        <div className="timeline-scale" aria-hidden="true">
          <span>Week 1</span>
          <span>Week {weeks}</span>
        </div>
        {roadmap.phases.map((p) => (
          // biome-ignore lint/a11y/useFocusableInteractive: a row of a static role="table", not of an interactive grid.
          <div className="timeline-row" role="row" key={`${p.name}-${p.startWeek}`}>
            {/* biome-ignore lint/a11y/useFocusableInteractive: as above. */}
            <span role="rowheader">{p.name}</span>
            <div className="timeline-track" role="cell">
              <span className="timeline-bar" style={{ left: pos(p.startWeek), width: `${(p.durationWeeks / weeks) * 100}%` }}>
                weeks {p.startWeek}–{p.startWeek + p.durationWeeks - 1}
              </span>
              {p.milestones.map((m) => (
                <span key={m.name} className="timeline-milestone" style={{ left: pos(m.week + 0.5) }} title={`${m.name} (week ${m.week})`} />
              ))}
            </div>
          </div>
        ))}
      </div>
      {roadmap.phases.map((p) => (
        <details key={`${p.name}-tasks`} className="output">
          <summary>
            {p.name} <span className="muted">— {p.goal}</span>
          </summary>
          {p.milestones.length ? (
            <ul>
              {p.milestones.map((m) => (
                <li key={m.name}>
                  <strong>Milestone, week {m.week}:</strong> {m.name} — {m.successCriteria}
                </li>
              ))}
            </ul>
          ) : null}
          <TableScroll label="Roadmap tasks">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Task</th>
                  <th scope="col">Estimate</th>
                  <th scope="col">Role</th>
                </tr>
              </thead>
              <tbody>
                {p.tasks.map((t, i) => (
                  <tr key={i}>
                    <td>{t.title}</td>
                    <td>{t.estimateDays} d</td>
                    <td>{t.role}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </details>
      ))}
      {roadmap.risks.length ? (
        <>
          <h3>Risks</h3>
          <ul>
            {roadmap.risks.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
