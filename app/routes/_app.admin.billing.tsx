import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { appUrl } from "~/config.server";
import { isAdmin } from "~/domain/actor";
import { adminBillingOverview } from "~/domain/billing/admin.server";
import { billingPortalLink } from "~/domain/billing/checkout.server";
import { PLAN_NAMES, type Metric } from "~/domain/billing/plans";
import { METRIC_LABELS, MONTHLY_METRICS } from "~/domain/billing/pricing";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Billing · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const changed = new URL(request.url).searchParams.has("changed");
  return { allowed: true as const, changed, ...(await adminBillingOverview(actor)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const base = appUrl();
    const link = await billingPortalLink(actor, base);
    return redirect(link.startsWith(base) ? link.slice(base.length) || "/" : link);
  } catch (error) {
    return formFailure(error, values);
  }
}

const date = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium" });
const money = (cents: number | null, interval: string | null) =>
  cents === null ? "Custom" : `$${(cents / 100).toFixed(2)}${interval ? ` / ${interval === "annual" ? "year" : "month"}` : ""}`;
const num = (n: number) => n.toLocaleString("en-US");

export default function AdminBilling() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>Billing is managed by owners and admins</h2>
      </div>
    );
  }
  const levels = new Map(data.warnings.map((w) => [w.metric, w]));
  const usage = Object.entries(data.usage) as [Metric, { current: number; limit: number; percentageUsed: number }][];
  return (
    <div className="stack">
      {data.changed ? (
        <div className="alert alert-success" role="status">
          <p>Your plan is now {data.plan.name}. New limits apply at once.</p>
        </div>
      ) : null}
      <FormAlert state={result && "formError" in result ? result : null} />
      <section className="card" aria-labelledby="plan-heading">
        <h2 id="plan-heading">
          {`${data.plan.name} plan`} {data.plan.interval ? <span className="badge">{`billed ${data.plan.interval}`}</span> : null}
        </h2>
        <p className="muted">
          {data.plan.prices ? `$${data.plan.prices.monthly} per month or $${data.plan.prices.annual} per year, per organization.` : "Custom pricing."}{" "}
          {data.plan.subscriptionStatus ? `Subscription: ${data.plan.subscriptionStatus}.` : null}
        </p>
        <div className="inline">
          <Link className="btn btn-primary" to="/admin/plans">
            Change plan
          </Link>
          {data.plan.provider === "stripe" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="portal" />
              <SubmitButton className="btn btn-secondary" pendingText="Opening…">
                Manage payment details
              </SubmitButton>
            </Form>
          ) : null}
        </div>
      </section>

      <section className="card" aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage</h2>
        {data.warnings.length ? (
          <div className="alert alert-warning" role="status">
            <ul>
              {data.warnings.map((w) => (
                <li key={w.metric}>{w.message}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <TableScroll label="Usage">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Resource</th>
                <th scope="col">Used</th>
                <th scope="col">Usage</th>
              </tr>
            </thead>
            <tbody>
              {usage.map(([metric, u]) => {
                const level = levels.get(metric)?.level;
                return (
                  <tr key={metric} data-metric={metric} data-level={level ?? "ok"}>
                    <th scope="row">{`${METRIC_LABELS[metric]}${MONTHLY_METRICS.includes(metric) ? " this month" : ""}`}</th>
                    <td>
                      {num(u.current)} of {u.limit === -1 ? "unlimited" : num(u.limit)}{" "}
                      {level ? (
                        <span className={`badge ${level === "critical" ? "badge-danger" : "badge-warning"}`}>
                          {level === "critical" ? "Limit reached" : "Near limit"}
                        </span>
                      ) : null}
                    </td>
                    <td>
                      {u.limit === -1 ? (
                        <span className="muted">Unlimited</span>
                      ) : (
                        <meter
                          min={0}
                          max={100}
                          low={80}
                          high={99.9}
                          optimum={0}
                          value={Math.min(u.percentageUsed, 100)}
                          aria-label={`${METRIC_LABELS[metric]}: ${u.percentageUsed}% used`}
                        >
                          {u.percentageUsed}%
                        </meter>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      </section>

      <section className="card" aria-labelledby="trend-heading">
        <h2 id="trend-heading">Usage trend</h2>
        <TableScroll label="Usage trend">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">{METRIC_LABELS.ai_tokens}</th>
                <th scope="col">Projects created</th>
                <th scope="col">{METRIC_LABELS.document_uploads}</th>
                <th scope="col">{METRIC_LABELS.transcription_minutes}</th>
              </tr>
            </thead>
            <tbody>
              {data.trend.map((t) => (
                <tr key={t.month}>
                  <th scope="row">{t.month}</th>
                  <td>{num(t.ai_tokens)}</td>
                  <td>{num(t.projects_created)}</td>
                  <td>{num(t.document_uploads)}</td>
                  <td>{num(t.transcription_minutes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      <section className="card" aria-labelledby="history-heading">
        <h2 id="history-heading">Billing history</h2>
        {data.history.length === 0 ? (
          <p className="muted">No plan changes yet. Your organization has been on {PLAN_NAMES[data.plan.id]} since it was created.</p>
        ) : (
          <TableScroll label="Billing history">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Change</th>
                  <th scope="col">Price</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {data.history.map((h) => (
                  <tr key={h.id}>
                    <td>{date(h.createdAt)}</td>
                    <td>
                      {PLAN_NAMES[h.fromPlan]} → {PLAN_NAMES[h.toPlan]}
                    </td>
                    <td>{money(h.amountCents, h.interval)}</td>
                    <td>{h.actorName ?? (h.source === "webhook" ? "Payment provider" : "—")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </div>
  );
}
