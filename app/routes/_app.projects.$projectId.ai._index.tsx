import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { Review } from "~/ai/schemas";
import { collect } from "~/ai/run.server";
import { ReviewView } from "~/components/ai/review-view";
import { ScoreBars } from "~/components/ai/score-bars";
import { failureMessage, isInputError, LastGoodNote, RunError, runErrorId, useFailedRuns, useLastGood } from "~/components/ai/run-error";
import { StreamingToolForm } from "~/components/ai/tool-form";
import { startCoach } from "~/domain/ai-tools/coach.server";
import { getProjectScore, scoreProject } from "~/domain/ai-tools/score.server";
import { suggestImprovements } from "~/domain/ai-tools/suggestions.server";
import { listViews } from "~/domain/collaboration/stakeholders.server";
import { aiToolPage } from "~/http/ui/ai-ui.server";
import * as aiTools from "~/http/api/contracts/ai-tools";
import { underPolicy } from "~/http/ui/intent-action.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { actor, project, prd } = await aiToolPage(request, context, params.projectId!);
  const [score, views] = await Promise.all([getProjectScore(actor, project.id), listViews(actor, project.id)]);
  const latest = views.filter((v) => v.kind === "ai_review").at(-1);
  return {
    projectId: project.id,
    projectName: project.name,
    canEdit: project.permissions.canEdit,
    prdContent: prd?.content ?? "",
    score,
    coach: latest ? { ...(latest.payload as { review: Review; model: string }), createdAt: latest.createdAt } : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const projectId = params.projectId!;
  try {
    const { prd } = await aiToolPage(request, context, projectId);
    const content = prd?.content ?? "";
    // Each tool under the policy of the /api operation it mirrors: the AI rate, and an AI slot while it runs.
    if (values.intent === "score") {
      await underPolicy(actor, aiTools.scoreProject, values, () => scoreProject(actor, projectId, {}, request.signal));
      return redirect(`/projects/${projectId}/ai#score-heading`);
    }
    if (values.intent === "coach") {
      await underPolicy(actor, aiTools.coach, values, async () => collect(await startCoach(actor, { prdContent: content, projectId }), request.signal));
      return redirect(`/projects/${projectId}/ai#coach-heading`);
    }
    const result = await underPolicy(actor, aiTools.suggestions, values, () => suggestImprovements(actor, { content, projectId }, request.signal));
    return { suggestions: result.suggestions, model: result.model, at: new Date().toISOString() };
  } catch (error) {
    return formFailure(error, values, [], { intent: values.intent });
  }
}

export default function ReviewTools() {
  const { projectId, projectName, canEdit, prdContent, score, coach } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = result && "formError" in result ? result : null;
  const suggestions = useLastGood(result && "suggestions" in result ? result : null, Boolean(failure));
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  // A failed run's error sits under its own button; the result it would have replaced stays, marked as the last good one.
  const failed = (intent: string) => (failure?.intent === intent && !busy(intent) ? failure : null);
  const runError = (intent: string, lastGoodAt: string | null) => {
    const state = failed(intent);
    return state ? (
      <RunError
        id={runErrorId(intent)}
        message={failureMessage(state)}
        lastGood={lastGoodAt ? { at: lastGoodAt } : null}
        retry={isInputError(state) ? null : { values: state.values ?? { intent } }}
      />
    ) : null;
  };
  const runs = useFailedRuns(failure);
  const describedBy = (intent: string) => (failed(intent) ? runErrorId(intent) : undefined);
  const latestScore = score.score ? (score.history[0]?.createdAt ?? null) : null;
  return (
    <div className="stack">
      <section className="card" aria-labelledby="score-heading">
        <div className="card-header">
          <div>
            <h2 id="score-heading">Quality score</h2>
            <p>Six dimensions, 0–100, kept with each scoring so you can see progress.</p>
          </div>
          {canEdit ? (
            <Form method="post">
              <input type="hidden" name="intent" value="score" />
              <button type="submit" className="btn" disabled={busy("score")} aria-describedby={describedBy("score")}>
                {busy("score") ? "Scoring…" : score.score ? "Score again" : "Score the PRD"}
              </button>
            </Form>
          ) : null}
        </div>
        {runError("score", latestScore)}
        {score.score ? (
          <>
            {failed("score") && latestScore ? <LastGoodNote at={latestScore} /> : null}
            <div className="inline">
              <span className="score-big" data-testid="overall-score">
                {score.score.overallScore}
              </span>
              <span className="muted">/ 100 · {score.score.model === "builtin" ? "offline drafter (rule-based)" : score.score.model}</span>
            </div>
            <ScoreBars scores={score.score.breakdown} label="Score by dimension" />
            <details>
              <summary>What would raise each score</summary>
              <ul>
                {Object.entries(score.score.feedback).map(([k, v]) => (
                  <li key={k}>{v}</li>
                ))}
              </ul>
            </details>
            {score.history.length > 1 ? (
              <p className="muted">
                History:{" "}
                {score.history
                  .slice(0, 8)
                  .map((h) => h.overallScore)
                  .reverse()
                  .join(" → ")}
              </p>
            ) : null}
          </>
        ) : (
          <p className="muted">Not scored yet.</p>
        )}
      </section>

      <section className="card" aria-labelledby="coach-heading">
        <h2 id="coach-heading">Coach review</h2>
        <p className="muted">
          A structured review: what is strong, what to fix first, missing sections and next steps. Saved with the project's stakeholder views.
        </p>
        {canEdit ? (
          <StreamingToolForm
            intent="coach"
            endpoint="/api/ai/coach"
            body={() => ({ prdContent, projectId, projectName })}
            submitLabel={coach ? "Run the coach again" : "Run the coach"}
            pendingLabel="Reviewing…"
            progressLabel="Coach review"
            failure={failure}
            lastGood={coach ? { at: coach.createdAt } : null}
            onRunEnd={runs.onRunEnd}
          />
        ) : null}
        {coach ? (
          <>
            {runs.isFailed("coach") ? <LastGoodNote at={coach.createdAt} /> : null}
            <ReviewView review={coach.review} model={coach.model} createdAt={coach.createdAt} />
          </>
        ) : null}
      </section>

      <section className="card" aria-labelledby="suggestions-heading">
        <div className="card-header">
          <div>
            <h2 id="suggestions-heading">Suggestions</h2>
            <p>Three to five concrete edits, most important first.</p>
          </div>
          {canEdit ? (
            <Form method="post">
              <input type="hidden" name="intent" value="suggestions" />
              <button type="submit" className="btn btn-secondary" disabled={busy("suggestions")} aria-describedby={describedBy("suggestions")}>
                {busy("suggestions") ? "Thinking…" : "Get suggestions"}
              </button>
            </Form>
          ) : null}
        </div>
        {runError("suggestions", suggestions?.at ?? null)}
        {suggestions ? (
          <>
            {failed("suggestions") ? <LastGoodNote at={suggestions.at} /> : null}
            <ul className="check-list" data-testid="suggestions">
              {suggestions.suggestions.map((s) => (
                <li key={s.id} className={s.severity}>
                  <strong>{s.title}</strong> <span className="badge">{s.section}</span> <span className="muted">· {s.type.replace(/_/g, " ")}</span>
                  <br />
                  {s.description}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
    </div>
  );
}
