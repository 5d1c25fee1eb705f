import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { collect } from "~/ai/run.server";
import { DIAGRAM_TYPES } from "~/ai/schemas";
import { MermaidDiagram } from "~/components/ai/mermaid-diagram";
import { LastGoodNote, useFailedRuns } from "~/components/ai/run-error";
import { StreamingToolForm } from "~/components/ai/tool-form";
import { FormAlert } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { wireframeSchema } from "~/domain/ai-tools/ai-tools.schema";
import { listOutputs } from "~/domain/ai-tools/outputs.server";
import { startWireframe } from "~/domain/ai-tools/writing.server";
import { aiToolPage, outputToolAction } from "~/http/ui/ai-ui.server";
import * as aiTools from "~/http/api/contracts/ai-tools";
import { splitSections } from "~/utils/md-sections";

const LABELS: Record<(typeof DIAGRAM_TYPES)[number], string> = {
  user_flow: "User flow",
  system_architecture: "System architecture",
  screen_layout: "Screen layout (wireframe)",
  data_flow: "Data flow",
  sequence: "Sequence diagram",
  journey_map: "Journey map",
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { actor, project, prd } = await aiToolPage(request, context, params.projectId!);
  const diagrams = await listOutputs(actor, project.id, { kind: "wireframe", limit: 20 });
  return {
    projectId: project.id,
    canEdit: project.permissions.canEdit,
    prdContent: prd?.content ?? "",
    sections: splitSections(prd?.content ?? "")
      .map((p) => p.title)
      .filter(Boolean),
    diagrams: diagrams.map((d) => ({ id: d.id, title: d.title, source: d.content, model: d.model, createdAt: d.createdAt })),
  };
}

export const action = (args: ActionFunctionArgs) =>
  outputToolAction(args, "diagrams", aiTools.wireframe, async ({ actor, prd, project }, values) => {
    const input = wireframeSchema.parse({ content: prd?.content ?? "", diagramType: values.diagramType, section: values.section, projectId: project.id });
    await collect(await startWireframe(actor, input), args.request.signal);
  });

export default function Diagrams() {
  const { projectId, canEdit, prdContent, sections, diagrams } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const runs = useFailedRuns(failure);
  const newest = diagrams[0];
  const keptId = newest && runs.isFailed("wireframe") ? newest.id : null;
  return (
    <div className="stack">
      {canEdit ? (
        <section className="card" aria-labelledby="diagram-heading">
          <h2 id="diagram-heading">Draw a diagram</h2>
          <p className="muted">Mermaid diagrams drawn from the PRD: flows, architecture, screens, sequences and journeys.</p>
          <StreamingToolForm
            intent="wireframe"
            failure={failure}
            lastGood={newest ? { at: newest.createdAt, href: `#diagram-${newest.id}` } : null}
            onRunEnd={runs.onRunEnd}
            endpoint="/api/ai/wireframe"
            body={(f) => ({ content: prdContent, diagramType: f.get("diagramType"), section: f.get("section") || undefined, projectId })}
            submitLabel="Draw it"
            pendingLabel="Drawing…"
            progressLabel="Diagram"
          >
            <div className="form-row">
              <div className="field">
                <label htmlFor="diagram-type">Diagram type</label>
                <select id="diagram-type" name="diagramType" defaultValue="user_flow">
                  {DIAGRAM_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {LABELS[t]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="diagram-section">From</label>
                <select id="diagram-section" name="section" defaultValue="">
                  <option value="">The whole PRD</option>
                  {sections.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          </StreamingToolForm>
        </section>
      ) : null}
      <FormAlert state={failure?.intent === "delete-output" ? failure : null} />
      {diagrams.length ? (
        diagrams.map((d) => (
          <section key={d.id} id={`diagram-${d.id}`} className="card" data-testid="diagram">
            <div className="card-header">
              <h2>{d.title}</h2>
              {canEdit ? (
                <PostButton intent="delete-output" fields={{ outputId: d.id }} label={`Delete ${d.title}`} className="btn btn-danger btn-sm">
                  Delete
                </PostButton>
              ) : null}
            </div>
            {d.id === keptId ? <LastGoodNote at={d.createdAt} /> : null}
            <MermaidDiagram source={d.source} title={`${d.title} · ${d.model === "builtin" ? "offline drafter" : d.model}`} />
          </section>
        ))
      ) : (
        <p className="muted">No diagrams yet.</p>
      )}
    </div>
  );
}
