import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { DeliveryBar, StateBadge } from "~/components/trackers/delivery";
import { listOutputs } from "~/domain/ai-tools/outputs.server";
import { canWrite } from "~/domain/actor";
import { AppError } from "~/domain/errors";
import { projectAccess } from "~/domain/projects/access.server";
import { listTrackerConnections, trackerTargets } from "~/domain/trackers/connections.server";
import { listTrackerIssues, previewStories, sendStories } from "~/domain/trackers/sync.server";
import { sendStoriesSchema } from "~/domain/trackers/trackers.schema";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";
import trackerStyles from "~/styles/trackers.css?url";

export const meta: MetaFunction = () => [{ title: "Send to tracker · PRD Studio" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: trackerStyles }];

const messageOf = (error: unknown) => (error instanceof AppError ? (error.details?.[0]?.message ?? error.message) : null);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const { project, canEdit } = await orPageError(projectAccess(actor, params.projectId!));
  const mayEdit = canEdit && canWrite(actor);
  const q = new URL(request.url).searchParams;
  const chosen = { outputId: q.get("outputId") ?? "", connectionId: q.get("connectionId") ?? "", target: (q.get("target") ?? "").trim() };
  const [{ connections }, outputs, linked, { flash, headers }] = await Promise.all([
    listTrackerConnections(actor),
    listOutputs(actor, project.id, { kind: "user_stories", limit: 20 }),
    listTrackerIssues(actor, project.id),
    readFlash(request),
  ]);
  const connectionId = chosen.connectionId || (connections.length === 1 ? connections[0]!.id : "");
  let targets: { id: string; name: string }[] = [];
  let targetsError: string | null = null;
  let preview: Awaited<ReturnType<typeof previewStories>> | null = null;
  let previewError: string | null = null;
  if (mayEdit && connectionId) {
    try {
      targets = (await trackerTargets(actor, connectionId)).targets;
    } catch (error) {
      targetsError = messageOf(error);
      if (!targetsError) throw error;
    }
  }
  if (mayEdit && chosen.connectionId && chosen.target && chosen.outputId) {
    try {
      preview = await previewStories(actor, project.id, sendStoriesSchema.parse(chosen));
    } catch (error) {
      previewError = messageOf(error) ?? "These stories cannot be previewed. Check the choices above.";
    }
  }
  return withHeaders(
    {
      project: { id: project.id, name: project.name },
      mayEdit,
      connections: connections.map((c) => ({ id: c.id, label: `${c.serviceName} (${c.accountLabel})`, targetKind: c.targetKind })),
      outputs: outputs.map((o) => ({
        id: o.id,
        label: `${o.title}, ${new Date(o.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}`,
      })),
      chosen: { ...chosen, connectionId, outputId: chosen.outputId || outputs[0]?.id || "" },
      targets,
      targetsError,
      preview,
      previewError,
      linked,
      notice: flash?.kind === "notice" ? { message: flash.message, tone: flash.tone ?? "success" } : null,
    },
    { headers },
  );
}

export const action = intentAction({
  send: async ({ actor, values, params }) => {
    const input = sendStoriesSchema.parse({ connectionId: values.connectionId, target: values.target, outputId: values.outputId });
    const r = await sendStories(actor, params.projectId!, input);
    const failures = r.results.filter((x) => x.error);
    const parts = [`Sent to ${input.target}: ${r.created} created, ${r.updated} updated.`];
    if (failures.length)
      parts.push(`${failures.length} not sent: ${failures[0]!.error!.replace(/^Not sent: /, "")}. Send again to continue; nothing is duplicated.`);
    return redirectWithNotice(`/projects/${params.projectId}/tracker`, parts.join(" "), failures.length ? "error" : "success");
  },
});

export default function SendToTracker() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && typeof result === "object" && "formError" in result ? (result as FormState) : null;
  const kind = d.connections.find((c) => c.id === d.chosen.connectionId)?.targetKind ?? "repository";
  return (
    <div className="stack">
      {d.notice ? (
        <div className={`alert ${d.notice.tone === "error" ? "alert-error" : "alert-success"}`} role="status">
          <p>{d.notice.message}</p>
        </div>
      ) : null}
      <section className="card stack" aria-labelledby="send-heading">
        <h2 id="send-heading">Send user stories to a tracker</h2>
        {!d.mayEdit ? (
          <p className="muted">You can see the linked issues below; sending stories needs edit rights on this project.</p>
        ) : d.connections.length === 0 ? (
          <p className="muted">
            No issue tracker is connected. An owner or admin connects one in <Link to="/settings/trackers">Settings → Issue trackers</Link>.
          </p>
        ) : d.outputs.length === 0 ? (
          <p className="muted">
            No saved user stories yet. Write them on the <Link to={`/projects/${d.project.id}/ai/documents`}>AI documents page</Link>, then come back.
          </p>
        ) : (
          <Form method="get" className="form">
            <div className="field">
              <label htmlFor="field-outputId">User stories</label>
              <select id="field-outputId" name="outputId" defaultValue={d.chosen.outputId}>
                {d.outputs.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="field-connectionId">Tracker</label>
              <select id="field-connectionId" name="connectionId" defaultValue={d.chosen.connectionId}>
                {d.connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="field-target">{kind === "repository" ? "Repository (owner/name)" : `${kind[0]!.toUpperCase()}${kind.slice(1)}`}</label>
              <input
                id="field-target"
                name="target"
                list="tracker-targets"
                defaultValue={d.chosen.target}
                autoComplete="off"
                aria-invalid={d.targetsError || d.previewError ? true : undefined}
                aria-describedby="field-target-hint"
              />
              <datalist id="tracker-targets">
                {d.targets.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </datalist>
              <p id="field-target-hint" className={d.targetsError || d.previewError ? "field-error" : "hint"}>
                {d.previewError ??
                  d.targetsError ??
                  (d.targets.length
                    ? `Suggested: ${d.targets
                        .map((t) => t.name)
                        .slice(0, 5)
                        .join(", ")}`
                    : "Where the issues are created.")}
              </p>
            </div>
            <div>
              <button type="submit" className="btn btn-secondary">
                Preview the issues
              </button>
            </div>
          </Form>
        )}
      </section>
      {d.preview ? <Preview preview={d.preview} outputId={d.chosen.outputId} state={state} /> : null}
      <section className="card stack" aria-labelledby="linked-heading">
        <h2 id="linked-heading">Linked issues</h2>
        {d.linked.issues.length === 0 ? (
          <p className="muted">No story has been sent to a tracker yet.</p>
        ) : (
          <>
            <DeliveryBar progress={d.linked.progress} />
            <div className="tracker-table-wrap">
              <table className="table tracker-table">
                <caption className="sr-only">Issues linked to this project's stories</caption>
                <thead>
                  <tr>
                    <th scope="col">Story</th>
                    <th scope="col">Issue</th>
                    <th scope="col">State</th>
                    <th scope="col" className="tracker-optional">
                      Section
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {d.linked.issues.map((i) => (
                    <tr key={i.id}>
                      <td>{i.title}</td>
                      <td>
                        <a href={i.url}>{i.externalKey}</a>
                      </td>
                      <td>
                        <StateBadge state={i.state} />
                      </td>
                      <td className="tracker-optional">{i.section ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </div>
  );
}

type PreviewData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["preview"]>;

function Preview({ preview, outputId, state }: { preview: PreviewData; outputId: string; state: FormState | null }) {
  return (
    <section className="card stack" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview: {preview.target}</h2>
      <p>
        {preview.creates} to create, {preview.updates} to update. Stories already sent update their issue instead of making a new one.
      </p>
      {preview.stories.length === 0 ? (
        <p className="muted">No stories were found in this output (stories are the ### headings).</p>
      ) : (
        <div className="tracker-table-wrap">
          <table className="table tracker-table">
            <caption className="sr-only">Issues that will be sent</caption>
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">Title</th>
                <th scope="col" className="tracker-optional">
                  Labels
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.stories.map((s) => (
                <tr key={s.key}>
                  <td>{s.action === "create" ? "Create" : `Update ${s.issue?.externalKey ?? ""}`}</td>
                  <td>{s.title}</td>
                  <td className="tracker-optional">
                    <span className="tracker-labels">
                      {s.labels.map((l) => (
                        <span key={l} className="badge">
                          {l}
                        </span>
                      ))}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <FormAlert state={state} />
      {preview.stories.length ? (
        <Form method="post">
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="connectionId" value={preview.connectionId} />
          <input type="hidden" name="target" value={preview.target} />
          <input type="hidden" name="outputId" value={outputId} />
          <SubmitButton pendingText="Sending…">{`Send ${preview.stories.length} ${preview.stories.length === 1 ? "story" : "stories"} to ${preview.target}`}</SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
