import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { type AuditLogEntry, auditFilterSchema, listAuditLogsWithNames, summarizeAuditLogs } from "~/domain/audit/query.server";
import { requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Audit log · Admin · PRD Studio" }];

const PAGE_SIZE = 50;
const FILTER_KEYS = ["action", "severity", "category", "actor", "startDate", "endDate"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const url = new URL(request.url);
  const raw: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const v = url.searchParams.get(key)?.trim();
    if (v) raw[key] = v;
  }
  const parsed = auditFilterSchema.safeParse(raw);
  const filters = parsed.success ? parsed.data : {};
  const error = parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  const offset = Math.max(0, Number(url.searchParams.get("offset")) || 0);
  const [page, summary] = await Promise.all([listAuditLogsWithNames(actor, filters, { limit: PAGE_SIZE, offset }), summarizeAuditLogs(actor, filters)]);
  const query = new URLSearchParams(parsed.success ? raw : {});
  return { allowed: true as const, ...page, summary, raw, error, query: query.toString() };
}

type Named<T> = NonNullable<T> & { name: string | null };

/** Who acted: their name, with e-mail and id in the tooltip; the e-mail or id when the user is gone. */
function ActorCell({ actor }: { actor: Named<AuditLogEntry["actor"]> | null }) {
  if (!actor) return <>—</>;
  const tip = [actor.email, actor.id].filter(Boolean).join(" · ");
  return <span title={tip || undefined}>{actor.name ?? actor.email ?? actor.id ?? "—"}</span>;
}

const TARGET_TYPES: Record<string, string> = { user: "User", project: "Project" };

/** What it is about: a user's or project's name (a project links to it), with the id in the tooltip; other targets as type and id. */
function TargetCell({ target }: { target: Named<AuditLogEntry["target"]> | null }) {
  if (!target) return <>—</>;
  const type = target.type ? (TARGET_TYPES[target.type] ?? target.type.replace(/_/g, " ")) : "";
  if (!target.name) return <>{`${type} ${target.id ?? ""}`.trim() || "—"}</>;
  const tip = target.id ? `${type} id ${target.id}` : undefined;
  return (
    <>
      {type}{" "}
      {target.type === "project" && target.id ? (
        <Link to={`/projects/${target.id}`} title={tip}>
          {target.name}
        </Link>
      ) : (
        <span title={tip}>{target.name}</span>
      )}
    </>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export default function AuditLog() {
  const data = useLoaderData<typeof loader>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>The audit log is visible to admins</h2>
        <p>Ask an owner or admin of your organization.</p>
      </div>
    );
  }
  const withQuery = (extra: Record<string, string | number>) => {
    const q = new URLSearchParams(data.query);
    for (const [k, v] of Object.entries(extra)) q.set(k, String(v));
    return q.toString();
  };
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => (
        <span key={k} className="badge" style={{ marginRight: 6 }}>
          {k}: {n}
        </span>
      ));
  return (
    <div className="stack">
      <section className="card" aria-labelledby="audit-heading">
        <h2 id="audit-heading">Audit log</h2>
        <p>Security and administration events of your organization: sign-ins, keys, webhooks, members, billing and more.</p>
        {data.error ? (
          <div className="alert alert-error" role="alert">
            <p>Some filters are invalid and were ignored: {data.error}</p>
          </div>
        ) : null}
        <Form method="get" className="form" aria-label="Filter the audit log">
          <div className="field">
            <label htmlFor="f-action">Action</label>
            <input id="f-action" name="action" defaultValue={data.raw.action ?? ""} placeholder="auth.sign_in or auth.*" />
          </div>
          <div className="field">
            <label htmlFor="f-category">Category</label>
            <input id="f-category" name="category" defaultValue={data.raw.category ?? ""} placeholder="auth, security, integration…" />
          </div>
          <div className="field">
            <label htmlFor="f-severity">Severity</label>
            <select id="f-severity" name="severity" defaultValue={data.raw.severity ?? ""}>
              <option value="">Any</option>
              <option value="info">Info</option>
              <option value="warning">Warning</option>
              <option value="critical">Critical</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-actor">Actor (e-mail or user id)</label>
            <input id="f-actor" name="actor" defaultValue={data.raw.actor ?? ""} />
          </div>
          <div className="field">
            <label htmlFor="f-start">From</label>
            <input id="f-start" name="startDate" type="date" defaultValue={data.raw.startDate ?? ""} />
          </div>
          <div className="field">
            <label htmlFor="f-end">To</label>
            <input id="f-end" name="endDate" type="date" defaultValue={data.raw.endDate ?? ""} />
          </div>
          <div>
            <button type="submit" className="btn btn-primary">
              Apply filters
            </button>{" "}
            <Link to="/admin/audit" className="btn btn-secondary">
              Clear
            </Link>
          </div>
        </Form>
        <p>
          <a className="btn btn-secondary" href={`/api/admin/audit-logs/export?${withQuery({ format: "csv" })}`} download>
            Download CSV
          </a>{" "}
          <a className="btn btn-secondary" href={`/api/admin/audit-logs/export?${withQuery({ format: "json" })}`} download>
            Download JSON
          </a>
        </p>
      </section>
      <section className="card" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary ({plural(data.summary.total, "event")})</h2>
        <p>By severity: {counts(data.summary.bySeverity)}</p>
        <p>By category: {counts(data.summary.byCategory)}</p>
      </section>
      <section className="card" aria-labelledby="events-heading">
        <h2 id="events-heading">Events</h2>
        {data.logs.length === 0 ? (
          <div className="empty-state">
            <h3>No events match</h3>
            <p>Try a wider date range or clear the filters.</p>
          </div>
        ) : (
          <TableScroll label="Audit log events">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col">Category</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Actor</th>
                  <th scope="col">IP</th>
                  <th scope="col">Target</th>
                </tr>
              </thead>
              <tbody>
                {data.logs.map((l) => (
                  <tr key={l.id}>
                    <td>{when(l.createdAt)}</td>
                    <td>
                      <code>{l.action}</code>
                    </td>
                    <td>{l.category}</td>
                    <td>
                      <span className="badge">{l.severity}</span>
                    </td>
                    <td>
                      <ActorCell actor={l.actor} />
                    </td>
                    <td>{l.ip ?? "—"}</td>
                    <td>
                      <TargetCell target={l.target} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        <nav aria-label="Pages" style={{ marginTop: 12 }}>
          <p>
            Showing {data.total === 0 ? 0 : data.offset + 1}–{data.offset + data.logs.length} of {data.total}.{" "}
            {data.offset > 0 ? <Link to={`?${withQuery({ offset: Math.max(0, data.offset - data.limit) })}`}>Newer</Link> : null}{" "}
            {data.offset + data.limit < data.total ? <Link to={`?${withQuery({ offset: data.offset + data.limit })}`}>Older</Link> : null}
          </p>
        </nav>
      </section>
    </div>
  );
}
