import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { PriorityBadge, RelativeTime, StatusBadge, statusLabel } from "~/components/project-badges";
import { ExportMenu } from "~/components/projects/export-menu";
import { TabNav } from "~/components/tab-nav";
import { exportMenu } from "~/domain/exports/export.server";
import { PROJECT_STATUSES } from "~/domain/projects/projects.schema";
import { getProject, setProjectStatus } from "~/domain/projects/projects.server";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.project.name ?? "Project"} · PRD Studio` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  return { project, exportMenu: await exportMenu(actor) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    await setProjectStatus(actor, params.projectId!, values.status ?? "");
    return { ok: true as const };
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function ProjectLayout() {
  const { project, exportMenu: exportOptions } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const changing = navigation.formData?.get("intent") === "status";
  const base = `/projects/${project.id}`;
  return (
    <>
      <nav aria-label="Breadcrumb" className="muted" style={{ marginBottom: 8 }}>
        <Link to="/projects">Projects</Link> / {project.name}
      </nav>
      <div className="project-header">
        <div>
          <h1>{project.name}</h1>
          <div className="meta-row">
            <StatusBadge status={project.status} />
            <span>
              Priority <PriorityBadge priority={project.priority} />
            </span>
            <span>Assignee: {project.assignee?.name ?? "unassigned"}</span>
            {project.template ? <span>Template: {project.template.name}</span> : null}
            <span>
              Updated <RelativeTime iso={project.updatedAt} />
            </span>
          </div>
        </div>
        <div className="status-form" style={{ alignItems: "flex-start" }}>
          <ExportMenu projectId={project.id} menu={exportOptions} />
          {project.permissions.canEdit ? (
            <Form method="post" action={base} className="status-form">
              <input type="hidden" name="intent" value="status" />
              <label htmlFor="project-status" className="sr-only">
                Status
              </label>
              <select id="project-status" name="status" defaultValue={project.status} key={project.status}>
                {PROJECT_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {statusLabel(s)}
                  </option>
                ))}
              </select>
              <button type="submit" className="btn btn-secondary btn-sm" disabled={changing}>
                {changing ? "Saving…" : "Set status"}
              </button>
            </Form>
          ) : null}
        </div>
      </div>
      {project.description ? <p className="muted">{project.description}</p> : null}
      <TabNav
        label="Project"
        tabs={[
          { to: base, label: "Document", end: true },
          { to: `${base}/builder`, label: "AI builder" },
          { to: `${base}/ai`, label: "AI tools" },
          { to: `${base}/versions`, label: "Versions" },
          { to: `${base}/files`, label: "Files" },
          { to: `${base}/sharing`, label: "Sharing & people" },
          { to: `${base}/activity`, label: "Activity" },
          ...(project.permissions.canEdit ? [{ to: `${base}/settings`, label: "Settings" }] : []),
        ]}
      />
      <Outlet />
    </>
  );
}
