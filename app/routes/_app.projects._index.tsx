import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { PriorityBadge, RelativeTime, StatusBadge, statusLabel } from "~/components/project-badges";
import { listProjects } from "~/domain/projects/projects.server";
import { listProjectsSchema, PRIORITIES, PROJECT_STATUSES } from "~/domain/projects/projects.schema";
import { queryToObject } from "~/http/body.server";
import { AppError } from "~/domain/errors";
import { requireUiActor } from "~/http/ui.server";

export const meta: MetaFunction = () => [{ title: "Projects · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const raw = queryToObject(request.url);
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== ""));
  const parsed = listProjectsSchema.safeParse({ limit: 25, ...given });
  // A hand-edited URL with a bad value falls back to the defaults.
  const query = parsed.success ? parsed.data : listProjectsSchema.parse({ limit: 25 });
  const result = await listProjects(actor, query).catch((error) => {
    if (error instanceof AppError) return listProjects(actor, listProjectsSchema.parse({ limit: 25 }));
    throw error;
  });
  const filtered = ["search", "status", "priority", "templateId", "assignedToMe"].some((k) => given[k]);
  return { ...result, canCreate: actor.role !== "viewer", filtered };
}

export default function Projects() {
  const { projects, total, limit, offset, canCreate, filtered } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const page = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("offset", String(Math.max(0, n)));
    return `?${next}`;
  };
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Projects</h1>
          <p>{total === 1 ? "1 project" : `${total} projects`}{filtered ? " match your filters" : ""}</p>
        </div>
        {canCreate ? (
          <Link className="btn" to="/projects/new">
            New project
          </Link>
        ) : null}
      </div>
      <Form method="get" className="card filters" role="search" aria-label="Filter projects">
        <div className="field grow">
          <label htmlFor="f-search">Search</label>
          <input id="f-search" name="search" type="search" defaultValue={params.get("search") ?? ""} placeholder="Project name" />
        </div>
        <div className="field">
          <label htmlFor="f-status">Status</label>
          <select id="f-status" name="status" defaultValue={params.get("status") ?? ""}>
            <option value="">Any</option>
            {PROJECT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-priority">Priority</label>
          <select id="f-priority" name="priority" defaultValue={params.get("priority") ?? ""}>
            <option value="">Any</option>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {p[0]!.toUpperCase() + p.slice(1)}
              </option>
            ))}
            <option value="none">None</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-sort">Sort by</label>
          <select id="f-sort" name="sortBy" defaultValue={params.get("sortBy") ?? "updatedAt"}>
            <option value="updatedAt">Last updated</option>
            <option value="createdAt">Created</option>
            <option value="name">Name</option>
            <option value="status">Status</option>
            <option value="priority">Priority</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-order">Order</label>
          <select id="f-order" name="sortOrder" defaultValue={params.get("sortOrder") ?? ""}>
            <option value="">Default</option>
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" name="assignedToMe" value="true" defaultChecked={params.get("assignedToMe") === "true"} />
          Assigned to me
        </label>
        <div className="inline">
          <button type="submit" className="btn btn-secondary">
            {navigation.state === "loading" ? "Filtering…" : "Apply"}
          </button>
          {filtered ? <Link to="/projects">Clear</Link> : null}
        </div>
      </Form>
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
        <div className="card" style={{ padding: 0 }}>
          <table className="table projects-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Priority</th>
                <th scope="col">Assignee</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {projects.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link to={`/projects/${p.id}`} className="project-link">
                      {p.name}
                    </Link>
                    {p.description ? <div className="muted clamp">{p.description}</div> : null}
                  </td>
                  <td>
                    <StatusBadge status={p.status} />
                  </td>
                  <td>
                    <PriorityBadge priority={p.priority} />
                  </td>
                  <td>{p.assignee?.name ?? <span className="muted">Unassigned</span>}</td>
                  <td>
                    <RelativeTime iso={p.updatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > limit ? (
        <nav className="pagination" aria-label="Pages">
          {offset > 0 ? <Link to={page(offset - limit)}>← Previous</Link> : <span />}
          <span className="muted">
            {offset + 1}–{Math.min(offset + limit, total)} of {total}
          </span>
          {offset + limit < total ? <Link to={page(offset + limit)}>Next →</Link> : <span />}
        </nav>
      ) : null}
    </>
  );
}
