import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { ProjectSlackChannel } from "~/components/projects/project-slack-channel";
import { projectSlackChannel, setProjectSlackChannel } from "~/domain/slack/routing.server";
import { projectChannelSchema } from "~/domain/slack/slack.schema";
import slackStyles from "~/styles/slack.css?url";
import { validationError } from "~/domain/errors";
import { listMembers } from "~/domain/orgs/members.server";
import { PRIORITIES, updateProjectSchema } from "~/domain/projects/projects.schema";
import { deleteProject, getProject, updateProject } from "~/domain/projects/projects.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: slackStyles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  if (!project.permissions.canEdit) throw new Response("You cannot edit this project", { status: 403 });
  return { project, members: await listMembers(actor), slack: await projectSlackChannel(actor, project.id) };
}

export const action = intentAction({
  update: async ({ actor, values, params }) => {
    await updateProject(actor, params.projectId!, updateProjectSchema.parse(values));
    return { saved: true as const };
  },
  slackChannel: async ({ actor, values, params }) => {
    await setProjectSlackChannel(actor, params.projectId!, projectChannelSchema.parse(values).channelId ?? null);
    return { slackSaved: true as const };
  },
  delete: async ({ actor, values, params }) => {
    if (values.confirm !== "yes") throw validationError("confirm", "Tick the box to confirm");
    await deleteProject(actor, params.projectId!);
    return redirect("/projects");
  },
});

export default function ProjectSettings() {
  const { project, members, slack } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failed = result && "formError" in result ? result : null;
  const state = failed?.intent === "slackChannel" ? null : failed;
  return (
    <div className="stack" style={{ maxWidth: 680 }}>
      <section className="card" aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        {result && "saved" in result ? (
          <div className="alert alert-success" role="status">
            <p>Saved.</p>
          </div>
        ) : null}
        <FormAlert state={state} />
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="baseRevision" value={project.revision} />
          <Field label="Name" name="name" state={state} defaultValue={project.name} required />
          <div className="field">
            <label htmlFor="field-description">Description</label>
            <textarea id="field-description" name="description" rows={4} defaultValue={state?.values?.description ?? project.description} />
          </div>
          <div className="form-row">
            <div className="field">
              <label htmlFor="field-priority">Priority</label>
              <select id="field-priority" name="priority" defaultValue={project.priority ?? ""}>
                <option value="">None</option>
                {PRIORITIES.map((p) => (
                  <option key={p} value={p}>
                    {p[0]!.toUpperCase() + p.slice(1)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="field-assignee">Assignee</label>
              <select id="field-assignee" name="assignedToId" defaultValue={project.assignedToId ?? ""}>
                <option value="">Unassigned</option>
                {members.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name} ({m.email})
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div>
            <SubmitButton pendingText="Saving…">Save changes</SubmitButton>
          </div>
        </Form>
      </section>
      {slack ? (
        <ProjectSlackChannel slack={slack} state={failed?.intent === "slackChannel" ? failed : null} saved={Boolean(result && "slackSaved" in result)} />
      ) : null}
      {project.permissions.canDelete ? (
        <section className="card" aria-labelledby="danger-heading">
          <h2 id="danger-heading">Delete project</h2>
          <p className="muted">Deletes the PRD, every version, file, comment and share link. This cannot be undone.</p>
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="delete" />
            <label className="checkbox">
              <input type="checkbox" name="confirm" value="yes" required /> I understand this is permanent
            </label>
            <div>
              <button className="btn btn-danger" type="submit">
                Delete “{project.name}”
              </button>
            </div>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
