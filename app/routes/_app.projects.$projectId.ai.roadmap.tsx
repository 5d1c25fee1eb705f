import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { METHODOLOGIES, type Roadmap, TEAM_SIZES } from "~/ai/schemas";
import { AiProgress } from "~/components/ai/progress";
import { RoadmapTimeline } from "~/components/ai/roadmap-timeline";
import { failureMessage, isInputError, LastGoodNote, RunError, runErrorId } from "~/components/ai/run-error";
import { FormAlert } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { roadmapInputSchema } from "~/domain/ai-tools/ai-tools.schema";
import { listOutputs } from "~/domain/ai-tools/outputs.server";
import { buildRoadmap } from "~/domain/ai-tools/roadmap.server";
import { aiToolPage, outputToolAction } from "~/http/ui/ai-ui.server";
import * as aiTools from "~/http/api/contracts/ai-tools";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { actor, project } = await aiToolPage(request, context, params.projectId!);
  const outputs = await listOutputs(actor, project.id, { kind: "roadmap", limit: 10 });
  return {
    canEdit: project.permissions.canEdit,
    roadmaps: outputs.map((o) => ({ id: o.id, title: o.title, createdAt: o.createdAt, model: o.model, roadmap: o.data as Roadmap })),
  };
}

export const action = (args: ActionFunctionArgs) =>
  outputToolAction(args, "roadmap", aiTools.roadmap, async ({ actor, prd, project }, values) => {
    const input = roadmapInputSchema.parse({ ...values, prdContent: prd?.content ?? "", projectId: project.id });
    await buildRoadmap(actor, input, args.request.signal);
  });

export default function RoadmapPage() {
  const { canEdit, roadmaps } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const planning = navigation.state === "submitting" && navigation.formData?.get("intent") === "roadmap";
  const [latest, ...older] = roadmaps;
  // A failed run's error sits under its button; the latest roadmap stays, marked as the last good one.
  const failed = failure?.intent === "roadmap" && !planning ? failure : null;
  const errorId = runErrorId("roadmap");
  return (
    <div className="stack">
      {canEdit ? (
        <section className="card" aria-labelledby="roadmap-form-heading">
          <h2 id="roadmap-form-heading">Plan the delivery</h2>
          <p className="muted">Phases, milestones, tasks and week estimates derived from the PRD's requirements.</p>
          <Form method="post" className="inline">
            <input type="hidden" name="intent" value="roadmap" />
            <label htmlFor="roadmap-team">Team size</label>
            <select id="roadmap-team" name="teamSize" defaultValue={failed?.values?.teamSize ?? "medium"} className="input-sm">
              {TEAM_SIZES.map((t) => (
                <option key={t} value={t}>
                  {t === "small" ? "Small (2–4)" : t === "medium" ? "Medium (5–10)" : "Large (10+)"}
                </option>
              ))}
            </select>
            <label htmlFor="roadmap-method">Methodology</label>
            <select id="roadmap-method" name="methodology" defaultValue={failed?.values?.methodology ?? "scrum"} className="input-sm">
              {METHODOLOGIES.map((m) => (
                <option key={m} value={m}>
                  {m === "shape_up" ? "Shape Up" : m[0]!.toUpperCase() + m.slice(1)}
                </option>
              ))}
            </select>
            <button type="submit" className="btn" disabled={planning} aria-describedby={failed ? errorId : undefined}>
              {planning ? "Planning…" : "Build the roadmap"}
            </button>
          </Form>
          {planning ? <AiProgress label="Roadmap" phase="planning" percent={30} /> : null}
          {failed ? (
            <RunError
              id={errorId}
              message={failureMessage(failed)}
              lastGood={latest ? { at: latest.createdAt, href: "#latest-roadmap" } : null}
              retry={isInputError(failed) ? null : { values: failed.values ?? { intent: "roadmap" } }}
            />
          ) : null}
        </section>
      ) : null}
      {latest ? (
        <section className="card" aria-label="Latest roadmap" id="latest-roadmap">
          {failed ? <LastGoodNote at={latest.createdAt} /> : null}
          <RoadmapTimeline roadmap={latest.roadmap} />
          <p className="muted">{latest.model === "builtin" ? "Planned by the offline drafter (rule-based)." : `Planned with ${latest.model}.`}</p>
        </section>
      ) : (
        <p className="muted">No roadmap yet.</p>
      )}
      <FormAlert state={failure?.intent === "delete-output" ? failure : null} />
      {older.length ? (
        <section className="card" aria-labelledby="older-roadmaps">
          <h2 id="older-roadmaps">Earlier roadmaps</h2>
          <ul>
            {older.map((r) => (
              <li key={r.id}>
                {r.title} · {new Date(r.createdAt).toLocaleDateString("en-GB", { dateStyle: "medium" })} · {r.roadmap.totalWeeks} weeks{" "}
                {canEdit ? (
                  <PostButton intent="delete-output" fields={{ outputId: r.id }} label={`Delete ${r.title}`}>
                    Delete
                  </PostButton>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
