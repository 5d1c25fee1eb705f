import { Link } from "@remix-run/react";

export interface ChecklistStep {
  id: string;
  title: string;
  completed: boolean;
  link: string;
}

const HINTS: Record<string, { text: string; label: string }> = {
  profile: { text: "Add your job title or a short bio so teammates know who you are.", label: "Edit profile" },
  project: { text: "A project holds one PRD with its versions, comments, files and reviews.", label: "New project" },
  prd: { text: "Write or generate the PRD of one of your projects.", label: "Open projects" },
  invite: { text: "Bring a teammate in to review and comment.", label: "Invite teammates" },
  share: { text: "Share a read-only link with stakeholders.", label: "Open projects" },
};

/**
 * The 5-step getting-started checklist (GET /api/user/onboarding-progress), server-rendered.
 * Once every step is done it steps aside: a short card whose steps are folded
 * in a disclosure (`<details>`, so it opens without JavaScript).
 */
export function OnboardingChecklist({ steps, completedCount, total }: { steps: ChecklistStep[]; completedCount: number; total: number }) {
  if (completedCount === total) {
    return (
      <section className="card checklist-done" aria-labelledby="getting-started">
        <h2 id="getting-started">Getting started</h2>
        <details>
          <summary>{`All ${total} steps done — nice work. Show the steps`}</summary>
          <Steps steps={steps} />
        </details>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="getting-started">
      <h2 id="getting-started">Getting started</h2>
      <p className="muted">{`${completedCount} of ${total} done.`}</p>
      <progress max={total} value={completedCount} aria-label={`${completedCount} of ${total} steps done`} />
      <Steps steps={steps} />
    </section>
  );
}

function Steps({ steps }: { steps: ChecklistStep[] }) {
  return (
    <ul className="checklist">
      {steps.map((s) => (
        <li key={s.id} className={s.completed ? "done" : undefined}>
          <span className="dot" aria-hidden="true">
            {s.completed ? "✓" : ""}
          </span>
          <div>
            <strong>{s.title}</strong>
            <span className="sr-only">{s.completed ? " (done)" : " (to do)"}</span>
            {!s.completed ? (
              <div className="muted">
                {HINTS[s.id]?.text} <Link to={s.link}>{HINTS[s.id]?.label ?? "Go"}</Link>
              </div>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
