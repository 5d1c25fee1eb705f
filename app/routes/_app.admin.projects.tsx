import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Pagination, ProjectFilters, ProjectTable, projectCount } from "~/components/projects/project-list";
import { isAdmin } from "~/domain/actor";
import { listMembers } from "~/domain/orgs/members.server";
import { listTemplates } from "~/domain/templates/templates.server";
import { listTemplatesQuery } from "~/domain/templates/templates.schema";
import { uiProjectList } from "~/http/ui/project-list.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "All projects · Administration · PRD Studio" }];

const FILTERS = ["search", "status", "priority", "templateId", "assignedToId", "createdFrom", "createdTo"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [list, members, templates] = await Promise.all([
    uiProjectList(actor, request.url, [...FILTERS]),
    listMembers(actor),
    listTemplates(actor, listTemplatesQuery.parse({})),
  ]);
  return {
    allowed: true as const,
    ...list,
    members: members.map((m) => ({ id: m.id, name: m.name })),
    templates: templates.map((t) => ({ id: t.id, name: t.name })),
  };
}

export default function AdminProjects() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>The project overview is for owners and admins</h2>
      </div>
    );
  }
  const { projects, total, limit, offset, filtered, invalid, members, templates } = data;
  return (
    <div className="stack">
      <p className="muted">Every project of the organization: {projectCount(total, filtered)}.</p>
      {invalid ? (
        <p className="alert alert-error" role="alert">
          Some filters in the address were not valid (dates are YYYY-MM-DD); showing all projects instead.
        </p>
      ) : null}
      <ProjectFilters clearTo="/admin/projects" filtered={filtered}>
        <div className="field">
          <label htmlFor="f-assignee">Assignee</label>
          <select id="f-assignee" name="assignedToId" defaultValue={params.get("assignedToId") ?? ""}>
            <option value="">Anyone</option>
            <option value="none">Unassigned</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-template">Template</label>
          <select id="f-template" name="templateId" defaultValue={params.get("templateId") ?? ""}>
            <option value="">Any</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-from">Created from</label>
          <input id="f-from" name="createdFrom" type="date" defaultValue={params.get("createdFrom") ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="f-to">Created to</label>
          <input id="f-to" name="createdTo" type="date" defaultValue={params.get("createdTo") ?? ""} />
        </div>
      </ProjectFilters>
      {projects.length === 0 ? (
        <div className="card empty-state">
          {filtered ? (
            <>
              <h2>No projects match</h2>
              <p>Widen the date range or clear the filters.</p>
              <Link className="btn btn-secondary" to="/admin/projects">
                Clear filters
              </Link>
            </>
          ) : (
            <>
              <h2>No projects yet</h2>
              <p>Projects your members create will be listed here.</p>
            </>
          )}
        </div>
      ) : (
        <ProjectTable projects={projects} showCreated />
      )}
      <Pagination total={total} limit={limit} offset={offset} />
    </div>
  );
}
