import { Form, Link, useNavigation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { PriorityBadge, RelativeTime, StatusBadge, statusLabel } from "~/components/project-badges";
import { TableScroll } from "~/components/table-scroll";
import { PRIORITIES, PROJECT_STATUSES } from "~/domain/projects/projects.schema";
import { plural, pluralWord } from "~/utils/plural";

type Row = {
  id: string;
  name: string;
  description: string | null;
  status: string;
  priority: string | null;
  updatedAt: string;
  createdAt: string;
  assignee: { id: string; name: string | null } | null;
};

/** The filter bar of a project list; `extra` adds fields (the admin list adds assignee, template and dates). */
export function ProjectFilters({ clearTo, filtered, children }: { clearTo: string; filtered: boolean; children?: ReactNode }) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  return (
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
      {children}
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
      <div className="inline">
        <button type="submit" className="btn btn-secondary">
          {navigation.state === "loading" ? "Filtering…" : "Apply"}
        </button>
        {filtered ? <Link to={clearTo}>Clear</Link> : null}
      </div>
    </Form>
  );
}

export function ProjectTable({ projects, showCreated = false }: { projects: Row[]; showCreated?: boolean }) {
  return (
    <div className="card" style={{ padding: 0 }}>
      <TableScroll label="Projects">
        <table className="table projects-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Priority</th>
              <th scope="col">Assignee</th>
              {showCreated ? <th scope="col">Created</th> : null}
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
                {showCreated ? (
                  <td>
                    <RelativeTime iso={p.createdAt} />
                  </td>
                ) : null}
                <td>
                  <RelativeTime iso={p.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}

/** "1 project", "3 projects", with "match(es) your filters" when filtered. */
export function projectCount(total: number, filtered: boolean) {
  const n = plural(total, "project");
  return filtered ? `${n} ${pluralWord(total, "matches", "match")} your filters` : n;
}

export function Pagination({ total, limit, offset }: { total: number; limit: number; offset: number }) {
  const [params] = useSearchParams();
  if (total <= limit) return null;
  const page = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("offset", String(Math.max(0, n)));
    return `?${next}`;
  };
  return (
    <nav className="pagination" aria-label="Pages">
      {offset > 0 ? <Link to={page(offset - limit)}>← Previous</Link> : <span />}
      <span className="muted">
        {offset + 1}–{Math.min(offset + limit, total)} of {total}
      </span>
      {offset + limit < total ? <Link to={page(offset + limit)}>Next →</Link> : <span />}
    </nav>
  );
}
