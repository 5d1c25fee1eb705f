import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

export interface NpsStatus {
  due: boolean;
  lastResponse: { score: number; comment: string | null; createdAt: string } | null;
}

/**
 * The "How likely are you to recommend PRD Studio?" card. Pass `status`
 * from a loader (works without JavaScript); without it the card asks
 * /feedback/nps itself once JavaScript runs. Posts to /feedback/nps, which
 * records the answer (or "Not now": 30 days) and redirects back here.
 */
export function NpsSurvey({ status }: { status?: NpsStatus | null }) {
  const load = useFetcher<NpsStatus>();
  const submit = useFetcher();
  const location = useLocation();
  const asked = useRef(false);
  useEffect(() => {
    if (status !== undefined || asked.current) return;
    asked.current = true;
    load.load("/feedback/nps");
  }, [status, load]);
  const current = status ?? load.data;
  if (!current?.due) return null;
  if (submit.state !== "idle" || submit.data !== undefined) {
    return (
      <section className="card" aria-live="polite">
        <p>{submit.formData?.get("intent") === "dismiss" ? "No problem — we will ask again later." : "Thanks for your feedback!"}</p>
      </section>
    );
  }
  return (
    <section className="card nps-survey" aria-labelledby="nps-heading">
      <submit.Form method="post" action="/feedback/nps" className="form">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <fieldset>
          <legend id="nps-heading">
            <strong>How likely are you to recommend PRD Studio to a colleague?</strong>
          </legend>
          <div role="radiogroup" aria-labelledby="nps-heading" style={{ display: "flex", gap: 8, flexWrap: "wrap" }}>
            {Array.from({ length: 11 }, (_, n) => (
              <label key={n} className="checkbox">
                <input type="radio" name="score" value={n} required aria-label={`${n}${n === 0 ? " (not likely)" : n === 10 ? " (very likely)" : ""}`} /> {n}
              </label>
            ))}
          </div>
          <p className="hint">0 = not at all likely, 10 = extremely likely</p>
        </fieldset>
        <div className="field">
          <label htmlFor="nps-comment">What is the main reason for your score? (optional)</label>
          <textarea id="nps-comment" name="comment" rows={2} maxLength={2000} />
        </div>
        <div className="form-row">
          <button type="submit" className="btn" name="intent" value="answer">
            Send feedback
          </button>
          <button type="submit" className="btn btn-link" name="intent" value="dismiss" formNoValidate>
            Not now
          </button>
        </div>
      </submit.Form>
    </section>
  );
}
