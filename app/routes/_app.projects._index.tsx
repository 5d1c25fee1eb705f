import { canWrite } from "~/domain/actor";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { FieldNotes } from "~/components/forms";
import { Pagination, ProjectFilters, ProjectTable, projectCount } from "~/components/projects/project-list";
import { projectTemplateChoices } from "~/domain/templates/filter-choices.server";
import { uiProjectList } from "~/http/ui/project-list.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Projects · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const templates = await projectTemplateChoices(actor);
  // A template the filter does not offer (a hand-edited address, a deleted template): said next to the filter, and not applied.
  const url = new URL(request.url);
  const templateId = url.searchParams.get("templateId") ?? "";
  const templateError = templateId && !templates.some((t) => t.id === templateId) ? "That template is not one of the choices: pick one from the list." : null;
  if (templateError) url.searchParams.delete("templateId");
  const result = await uiProjectList(actor, url.toString(), ["search", "status", "priority", "templateId", "assignedToMe"]);
  return { ...result, canCreate: canWrite(actor), templates, templateError };
}

export default function Projects() {
  const { projects, total, limit, offset, canCreate, filtered, templates, templateError } = useLoaderData<typeof loader>();
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
        <div className="field">
          <label htmlFor="f-template">Template</label>
          <select
            id="f-template"
            name="templateId"
            defaultValue={templateError ? "" : (params.get("templateId") ?? "")}
            aria-invalid={templateError ? true : undefined}
            aria-describedby={templateError ? "f-template-error" : undefined}
          >
            <option value="">Any</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          <FieldNotes id="f-template" error={templateError ?? undefined} />
        </div>
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
