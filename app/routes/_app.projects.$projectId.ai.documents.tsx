import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { collect } from "~/ai/run.server";
import { STORY_SOURCES } from "~/ai/schemas";
import { newestOf, OutputList } from "~/components/ai/output-list";
import { useFailedRuns } from "~/components/ai/run-error";
import { StreamingToolForm } from "~/components/ai/tool-form";
import { FormAlert } from "~/components/forms";
import { codeSpecSchema, technicalSpecsSchema, userStoriesSchema } from "~/domain/ai-tools/ai-tools.schema";
import { startCodeSpec, startTechnicalSpecs, startUserStories } from "~/domain/ai-tools/writing.server";
import { outputsFor } from "~/http/ui/ai-outputs-ui.server";
import { aiToolPage, outputToolAction } from "~/http/ui/ai-ui.server";
import * as aiTools from "~/http/api/contracts/ai-tools";
import { trackersShown } from "~/domain/trackers/connections.server";
import { sentStoriesOf } from "~/domain/trackers/delivery-sections.server";
import deliveryStyles from "~/styles/delivery.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: deliveryStyles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { actor, project, prd } = await aiToolPage(request, context, params.projectId!);
  const outputs = await outputsFor(actor, project.id, ["user_stories", "technical_specs", "code_spec"]);
  return {
    projectId: project.id,
    projectName: project.name,
    canEdit: project.permissions.canEdit,
    prdContent: prd?.content ?? "",
    outputs,
    sentStories: await sentStoriesOf(actor, project.id, outputs),
    showTrackers: await trackersShown(actor),
  };
}

/** The /api operation each of the page's tools mirrors (its rules and AI rate apply to the form post). */
const documentTool = (values: { intent?: string }) =>
  values.intent === "technical_specs" ? aiTools.technicalSpecs : values.intent === "code_spec" ? aiTools.codeSpec : aiTools.userStories;

export const action = (args: ActionFunctionArgs) =>
  outputToolAction(args, "documents", documentTool, async ({ actor, prd, project }, values) => {
    const content = prd?.content ?? "";
    const base = { projectId: project.id, projectName: project.name };
    const producer =
      values.intent === "technical_specs"
        ? await startTechnicalSpecs(actor, technicalSpecsSchema.parse({ ...base, prdContent: content, focusAreas: values.focusAreas }))
        : values.intent === "code_spec"
          ? await startCodeSpec(actor, codeSpecSchema.parse({ projectId: project.id, content }))
          : await startUserStories(actor, userStoriesSchema.parse({ ...base, content, source: values.source || "prd" }));
    await collect(producer, args.request.signal);
  });

export default function Documents() {
  const { projectId, projectName, canEdit, prdContent, outputs, sentStories, showTrackers } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const runs = useFailedRuns(failure);
  // A failed run keeps the newest saved result of its tool on the page, marked as the last good one.
  const tool = (intent: string) => ({ failure, lastGood: newestOf(outputs, intent), onRunEnd: runs.onRunEnd });
  const lastGoodIds = ["user_stories", "technical_specs", "code_spec"]
    .filter((kind) => runs.isFailed(kind))
    .map((kind) => newestOf(outputs, kind)?.id)
    .filter((id): id is string => Boolean(id));
  return (
    <div className="stack">
      {canEdit ? (
        <div className="tool-grid">
          <section className="card" aria-labelledby="stories-heading">
            <h2 id="stories-heading">User stories</h2>
            <p className="muted">Stories with Given/When/Then acceptance criteria, size and priority, grouped by epic.</p>
            <StreamingToolForm
              intent="user_stories"
              {...tool("user_stories")}
              endpoint="/api/ai/user-stories"
              body={(f) => ({ content: prdContent, source: f.get("source"), projectId, projectName })}
              submitLabel="Write user stories"
              pendingLabel="Writing…"
              progressLabel="User stories"
            >
              <div className="field">
                <label htmlFor="stories-source">Read the PRD as</label>
                <select id="stories-source" name="source" defaultValue="prd">
                  {STORY_SOURCES.map((s) => (
                    <option key={s} value={s}>
                      {s === "prd" ? "A full PRD" : s === "feature" ? "A feature description" : "A list of requirements"}
                    </option>
                  ))}
                </select>
              </div>
            </StreamingToolForm>
          </section>
          <section className="card" aria-labelledby="specs-heading">
            <h2 id="specs-heading">Technical specification</h2>
            <p className="muted">Architecture, data model, API, non-functional requirements, security and open questions.</p>
            <StreamingToolForm
              intent="technical_specs"
              {...tool("technical_specs")}
              endpoint="/api/ai/technical-specs"
              body={(f) => ({ prdContent, projectId, projectName, focusAreas: String(f.get("focusAreas") ?? "") })}
              submitLabel="Write the technical spec"
              pendingLabel="Writing…"
              progressLabel="Technical specification"
            >
              <div className="field">
                <label htmlFor="specs-focus">Focus areas (optional)</label>
                <input id="specs-focus" name="focusAreas" placeholder="e.g. security, performance" aria-describedby="specs-focus-hint" />
                <span className="hint" id="specs-focus-hint">
                  Comma-separated; each gets its own section.
                </span>
              </div>
            </StreamingToolForm>
          </section>
          <section className="card" aria-labelledby="code-heading">
            <h2 id="code-heading">Code specification</h2>
            <p className="muted">Module layout, TypeScript types, functions, SQL tables and tests for each acceptance criterion.</p>
            <StreamingToolForm
              intent="code_spec"
              {...tool("code_spec")}
              endpoint="/api/ai/code-spec"
              body={() => ({ content: prdContent, projectId })}
              submitLabel="Write the code spec"
              pendingLabel="Writing…"
              progressLabel="Code specification"
            />
          </section>
        </div>
      ) : null}
      <section aria-labelledby="saved-docs-heading">
        <h2 id="saved-docs-heading">Saved results</h2>
        <FormAlert state={failure?.intent === "delete-output" ? failure : null} />
        <OutputList
          outputs={outputs}
          canEdit={canEdit}
          lastGoodIds={lastGoodIds}
          sentStories={sentStories}
          trackerHref={showTrackers ? (id) => `/projects/${projectId}/tracker?outputId=${encodeURIComponent(id)}` : undefined}
          empty="Nothing generated yet. The results are saved here for the whole team."
        />
      </section>
    </div>
  );
}
