import { canWrite } from "~/domain/actor";
// /exports/schedules: the scheduled exports of the organization and a form to add one.
// The "_" after "exports" keeps this page out of the /exports page's layout.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { ScheduledExportFields } from "~/components/scheduled-export-form";
import { PLAN_NAMES, planAtLeast } from "~/domain/billing/plans";
import { defaultTimezone, scheduleFormChoices } from "~/domain/scheduled-exports/choices.server";
import { DIGEST_LABEL, describeSchedule, formatInZone } from "~/domain/scheduled-exports/schedule";
import { scheduleFormInput } from "~/domain/scheduled-exports/scheduled-exports.form";
import { createScheduleSchema } from "~/domain/scheduled-exports/scheduled-exports.schema";
import { createSchedule, listSchedules } from "~/domain/scheduled-exports/schedules.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";
import { DeliveryStatus } from "~/components/delivery-status";
import { TableScroll } from "~/components/table-scroll";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Scheduled exports · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!planAtLeast(actor.org.plan, "pro")) return { allowed: false as const, plan: PLAN_NAMES[actor.org.plan] };
  const [schedules, choices, { flash, headers }] = await Promise.all([listSchedules(actor), scheduleFormChoices(actor), readFlash(request)]);
  const rows = schedules.map((s) => ({
    ...s,
    description: describeSchedule(s),
    next: s.nextRunAt ? formatInZone(s.nextRunAt, s.timezone) : null,
    last: s.lastRunAt ? formatInZone(s.lastRunAt, s.timezone) : null,
  }));
  const notice = flash?.kind === "notice" ? flash.message : null;
  return withHeaders(
    { allowed: true as const, schedules: rows, ...choices, timezone: defaultTimezone(actor), canCreate: canWrite(actor), notice },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const schedule = await createSchedule(actor, createScheduleSchema.parse(scheduleFormInput(values)));
    // Not a redirect for webhooks: the signing secret is shown in this response only.
    if (schedule.webhookSecret) return { created: { id: schedule.id, secret: schedule.webhookSecret } };
    const when = schedule.nextRunAt ? ` First run: ${formatInZone(schedule.nextRunAt, schedule.timezone)}.` : "";
    return redirectWithNotice(`/exports/schedules/${schedule.id}`, `Scheduled export created.${when}`);
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function Schedules() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>Scheduled exports need the Pro plan</h2>
        <p>
          Your organization is on the {data.plan} plan. On Pro and above, PRDs can be sent by e-mail or webhook every week, on a cron schedule, once, or when a
          project reaches a status. <Link to="/pricing">Compare plans</Link>
        </p>
      </div>
    );
  }
  const state = result && "formError" in result ? (result as FormState) : null;
  const created = result && "created" in result ? result.created : null;
  return (
    <div className="stack">
      <p>
        <Link to="/exports">← Exports</Link>
      </p>
      {created ? (
        <section className="card" aria-labelledby="new-schedule-heading">
          <h2 id="new-schedule-heading">Scheduled export created</h2>
          <div className="alert alert-warning">
            <p>Copy the webhook signing secret now: this is the only time it is shown.</p>
          </div>
          <div className="secret-box">
            <code data-testid="webhook-secret">{created.secret}</code>
            <CopyButton value={created.secret} />
          </div>
          <p className="muted" style={{ marginTop: 12 }}>
            Each delivery carries <code>x-webhook-signature</code>: the hex HMAC-SHA256 of the raw body with this secret.{" "}
            <Link to={`/exports/schedules/${created.id}`}>Open the schedule</Link>
          </p>
        </section>
      ) : null}
      {data.notice ? (
        <div className="alert alert-success" role="status">
          <p>{data.notice}</p>
        </div>
      ) : null}
      <section className="card" aria-labelledby="schedules-heading">
        <div className="card-header">
          <div>
            <h2 id="schedules-heading">Scheduled exports</h2>
            <p>PRDs delivered as files by e-mail or webhook, on a schedule or when a project changes status — one project, or all projects as a digest.</p>
          </div>
        </div>
        {data.schedules.length === 0 ? (
          <div className="empty-state">
            <h3>No scheduled exports yet</h3>
            <p>Add one below, for example a weekly PDF of a PRD for your stakeholders, or a weekly digest of every project.</p>
          </div>
        ) : (
          <TableScroll label="Scheduled exports">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">When</th>
                  <th scope="col">Delivery</th>
                  <th scope="col">Next run</th>
                  <th scope="col">Last run</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.schedules.map((s) => (
                  <tr key={s.id}>
                    <td>
                      <Link to={`/exports/schedules/${s.id}`}>{s.projectName ?? (s.projectId ? "—" : DIGEST_LABEL)}</Link>
                    </td>
                    <td>{s.description}</td>
                    <td>
                      {s.format.toUpperCase()} by {s.deliveryMethod === "email" ? `e-mail to ${plural(s.recipients.length, "recipient")}` : "webhook"}
                    </td>
                    <td>{s.isActive ? (s.next ?? "—") : "Paused"}</td>
                    <td>
                      {s.last ?? "Never"}
                      {s.lastDeliveryStatus ? (
                        <>
                          {" "}
                          <DeliveryStatus status={s.lastDeliveryStatus} />
                        </>
                      ) : null}
                    </td>
                    <td>{s.isActive ? <span className="badge badge-success">Active</span> : <span className="badge badge-warning">Paused</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section className="card" aria-labelledby="create-schedule-heading" style={{ maxWidth: 680 }}>
        <h2 id="create-schedule-heading">Add a scheduled export</h2>
        {!data.canCreate ? (
          <div className="alert alert-info">
            <p>Viewers cannot schedule exports. Ask an owner, admin or the project's editors.</p>
          </div>
        ) : data.projects.length === 0 && !data.allowDigest ? (
          <div className="alert alert-info">
            <p>
              There is no project you can edit yet. <Link to="/projects/new">Create a project</Link> first.
            </p>
          </div>
        ) : (
          <>
            <FormAlert state={state} />
            <Form method="post" className="form" noValidate>
              <ScheduledExportFields
                state={state}
                defaults={{ scheduleType: "weekly", format: "pdf", deliveryMethod: "email", timezone: data.timezone, projectId: data.projects[0]?.id ?? "" }}
                projects={data.projects}
                allowDigest={data.allowDigest}
                statuses={data.statuses}
                timezones={data.timezones}
              />
              <div>
                <SubmitButton pendingText="Saving…">Add scheduled export</SubmitButton>
              </div>
            </Form>
          </>
        )}
      </section>
    </div>
  );
}
