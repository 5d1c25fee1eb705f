import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ZodError } from "zod/v4";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { usageAnalytics, usageAnalyticsSchema } from "~/domain/admin/analytics.server";
import { adminDashboard } from "~/domain/admin/dashboard.server";
import { requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Dashboard · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const days = new URL(request.url).searchParams.get("days") ?? "30";
  let query;
  try {
    query = usageAnalyticsSchema.parse({ days, templateMetrics: "true", alerts: "true" });
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    query = usageAnalyticsSchema.parse({ templateMetrics: "true", alerts: "true" });
  }
  const [dashboard, analytics] = await Promise.all([adminDashboard(actor), usageAnalytics(actor, query)]);
  return { allowed: true as const, dashboard, analytics };
}

const num = (n: number) => n.toLocaleString("en-US");
const pct = (n: number, max: number) => `${max > 0 ? Math.round((n / max) * 100) : 0}%`;

function Bars({ label, rows }: { label: string; rows: { label: string; value: number }[] }) {
  const max = Math.max(0, ...rows.map((r) => r.value));
  if (max === 0) return <p className="muted">Nothing recorded in this period yet.</p>;
  return (
    <div className="score-bars" role="list" aria-label={label}>
      {rows.map((r) => (
        <div className="score-bar" role="listitem" key={r.label}>
          <span>{r.label}</span>
          <span className="track" aria-hidden="true">
            <span className="fill" style={{ display: "block", width: pct(r.value, max) }} />
          </span>
          <span>{num(r.value)}</span>
        </div>
      ))}
    </div>
  );
}

export default function AdminDashboard() {
  const data = useLoaderData<typeof loader>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>The dashboard is for owners and admins</h2>
      </div>
    );
  }
  const { dashboard: d, analytics: a } = data;
  const activeDays = a.ai.perDay.filter((p) => p.calls > 0);
  return (
    <div className="stack">
      <section className="card" aria-labelledby="overview-heading">
        <h2 id="overview-heading">Overview</h2>
        <dl className="meta-row">
          <div>
            <dt>Projects</dt>
            <dd>{num(d.projects.total)}</dd>
          </div>
          <div>
            <dt>Created in 7 days</dt>
            <dd>{num(d.projects.createdLast7Days)}</dd>
          </div>
          <div>
            <dt>Created in 30 days</dt>
            <dd>{num(d.projects.createdLast30Days)}</dd>
          </div>
          <div>
            <dt>Members</dt>
            <dd>{num(d.users.total)}</dd>
          </div>
          <div>
            <dt>Active in 7 days</dt>
            <dd>{num(d.users.activeLast7Days)}</dd>
          </div>
          <div>
            <dt>Active in 30 days</dt>
            <dd>{num(d.users.activeLast30Days)}</dd>
          </div>
        </dl>
        <p className="muted">
          Members by role:{" "}
          {Object.entries(d.users.byRole)
            .map(([role, n]) => plural(n, role))
            .join(", ")}
          .
        </p>
      </section>

      <section className="card" aria-labelledby="status-heading">
        <h2 id="status-heading">Projects by status</h2>
        {d.projects.total === 0 ? (
          <p className="muted">
            No projects yet. <Link to="/projects">Go to projects</Link>.
          </p>
        ) : (
          <Bars label="Projects by status" rows={d.projects.byStatus.map((s) => ({ label: s.label, value: s.count }))} />
        )}
      </section>

      <section className="card" aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recent projects</h2>
        {d.recentProjects.length === 0 ? (
          <p className="muted">No projects yet.</p>
        ) : (
          <TableScroll label="Recent projects">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {d.recentProjects.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <Link to={`/projects/${p.id}`}>{p.name}</Link>
                    </td>
                    <td>
                      <span className="badge">{d.projects.byStatus.find((s) => s.status === p.status)?.label ?? p.status}</span>
                    </td>
                    <td>{p.createdAt.slice(0, 10)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="card" aria-labelledby="activity-heading">
        <h2 id="activity-heading">Project activity, last 30 days</h2>
        <Bars label="Project activity per day" rows={d.activity.filter((x) => x.count > 0).map((x) => ({ label: x.date, value: x.count }))} />
      </section>

      <section className="card" aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage analytics</h2>
        <Form method="get" className="inline-form">
          <label htmlFor="days">Period</label>{" "}
          <select id="days" name="days" defaultValue={String(a.days)}>
            <option value="7">Last 7 days</option>
            <option value="30">Last 30 days</option>
            <option value="90">Last 90 days</option>
          </select>{" "}
          <button type="submit" className="btn btn-secondary btn-sm">
            Show
          </button>
        </Form>
        <p>
          {plural(a.ai.calls, "AI call")}, {plural(a.ai.tokens, "token")} ({num(a.ai.inputTokens)} in, {num(a.ai.outputTokens)} out);{" "}
          {plural(a.projects.created, "project")} created in the last {plural(a.days, "day")}.
        </p>
        <h3>AI tokens per day</h3>
        <Bars label="AI tokens per day" rows={activeDays.map((x) => ({ label: x.date, value: x.tokens }))} />
        <h3>Projects created per day</h3>
        <Bars label="Projects created per day" rows={a.projects.perDay.filter((x) => x.count > 0).map((x) => ({ label: x.date, value: x.count }))} />
      </section>

      <section className="card" aria-labelledby="templates-heading">
        <h2 id="templates-heading">Templates used</h2>
        {!a.templateMetrics?.length ? (
          <p className="muted">No project uses a template yet.</p>
        ) : (
          <TableScroll label="Templates used">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Template</th>
                  <th scope="col">Projects</th>
                  <th scope="col">In the last {a.days} days</th>
                </tr>
              </thead>
              <tbody>
                {a.templateMetrics.map((t) => (
                  <tr key={t.templateId}>
                    <td>{t.name}</td>
                    <td>{num(t.projects)}</td>
                    <td>{num(t.projectsInPeriod)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="card" aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Usage alerts</h2>
        {!a.alerts?.length ? (
          <p className="muted">No plan limit is above 80%.</p>
        ) : (
          <ul className="stack">
            {a.alerts.map((w) => (
              <li key={w.metric} className={`alert ${w.level === "critical" ? "alert-error" : "alert-warning"}`}>
                {w.message} <Link to="/admin/billing">See billing</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
