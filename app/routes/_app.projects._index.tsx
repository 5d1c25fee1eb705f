import { canWrite } from "~/domain/actor";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Pagination, ProjectFilters, ProjectTable, projectCount } from "~/components/projects/project-list";
import { uiProjectList } from "~/http/ui/project-list.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Projects · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const result = await uiProjectList(actor, request.url, ["search", "status", "priority", "templateId", "assignedToMe"]);
  return { ...result, canCreate: canWrite(actor) };
}

export default function Projects() {
  const { projects, total, limit, offset, canCreate, filtered } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Projects</h1>
          <p>{projectCount(total, filtered)}</p>
        </div>
        {canCreate ? (
          <Link className="btn" to="/projects/new">
            New project
          </Link>
        ) : null}
      </div>
      <ProjectFilters clearTo="/projects" filtered={filtered}>
        <label className="checkbox">
          <input type="checkbox" name="assignedToMe" value="true" defaultChecked={params.get("assignedToMe") === "true"} />
          Assigned to me
        </label>
      </ProjectFilters>
      {projects.length === 0 ? (
        <div className="card empty-state">
          {filtered ? (
            <>
              <h2>No projects match</h2>
              <p>Try another search or clear the filters.</p>
              <Link className="btn btn-secondary" to="/projects">
                Clear filters
              </Link>
            </>
          ) : (
            <>
              <h2>Start your first PRD</h2>
              <p>A project holds one PRD with its versions, comments, files and reviews. Describe your idea and go.</p>
              {canCreate ? (
                <Link className="btn" to="/projects/new">
                  Create a project
                </Link>
              ) : (
                <p>Projects shared with you will appear here.</p>
              )}
            </>
          )}
        </div>
      ) : (
        <ProjectTable projects={projects} />
      )}
      <Pagination total={total} limit={limit} offset={offset} />
    </>
  );
}
