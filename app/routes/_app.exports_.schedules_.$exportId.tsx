// /exports/schedules/:exportId: one scheduled export: edit, pause or resume, run now, delete, delivery log.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { ScheduledExportFields } from "~/components/scheduled-export-form";
import { PLAN_NAMES, planAtLeast } from "~/domain/billing/plans";
import { scheduleFormChoices } from "~/domain/scheduled-exports/choices.server";
import { triggerSchedule } from "~/domain/scheduled-exports/runs.server";
import { DIGEST_LABEL, describeSchedule, formatInZone, toLocalInput } from "~/domain/scheduled-exports/schedule";
import { scheduleFormInput, scheduleFormValues } from "~/domain/scheduled-exports/scheduled-exports.form";
import { updateScheduleSchema } from "~/domain/scheduled-exports/scheduled-exports.schema";
import { canManageSchedule, deleteSchedule, getSchedule, listLogs, updateSchedule } from "~/domain/scheduled-exports/schedules.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { type IntentArgs, intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";
import { DeliveryStatus } from "~/components/delivery-status";
import { TableScroll } from "~/components/table-scroll";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `${data && "schedule" in data ? `${data.schedule.projectName ?? (data.schedule.projectId ? "Scheduled export" : DIGEST_LABEL)}` : "Scheduled export"} · Scheduled exports · PRD Studio`,
  },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!planAtLeast(actor.org.plan, "pro")) return { allowed: false as const, plan: PLAN_NAMES[actor.org.plan] };
  const id = params.exportId ?? "";
  const [schedule, logs, choices, { flash, headers }] = await Promise.all([
    orPageError(getSchedule(actor, id)),
    orPageError(listLogs(actor, id)),
    scheduleFormChoices(actor),
    readFlash(request),
  ]);
  const zone = (iso: string | null) => (iso ? formatInZone(iso, schedule.timezone) : null);
  const notice = flash?.kind === "notice" ? flash.message : null;
  const canManage = await canManageSchedule(actor, schedule);
  return withHeaders(
    {
      allowed: true as const,
      schedule,
      description: describeSchedule(schedule),
      next: zone(schedule.nextRunAt),
      last: zone(schedule.lastRunAt),
      logs: logs.map((l) => ({ ...l, when: zone(l.createdAt)! })),
      values: scheduleFormValues({ ...schedule, scheduledAtLocal: toLocalInput(schedule.scheduledAt, schedule.timezone) }),
      ...choices,
      canManage,
      notice,
    },
    { headers },
  );
}

const exportId = (params: IntentArgs["params"]) => params.exportId ?? "";
const back = (params: IntentArgs["params"], message: string, to = `/exports/schedules/${exportId(params)}`) => redirectWithNotice(to, message);

const pauseOrResume = async ({ actor, params, intent }: IntentArgs) => {
  await updateSchedule(actor, exportId(params), { isActive: intent === "resume" });
  return back(params, intent === "resume" ? "Scheduled export resumed." : "Scheduled export paused: it will not run until resumed.");
};

export const action = intentAction({
  save: async ({ actor, values, params }) => {
    const schedule = await updateSchedule(actor, exportId(params), updateScheduleSchema.parse(scheduleFormInput(values)));
    if (schedule.webhookSecret) return { secret: schedule.webhookSecret };
    return back(params, "Scheduled export saved.");
  },
  run: async ({ actor, params }) => {
    await triggerSchedule(actor, exportId(params));
    return back(params, "Export queued: it is rendered and delivered in a moment. Reload to see the result in the delivery log.");
  },
  pause: pauseOrResume,
  resume: pauseOrResume,
  delete: async ({ actor, params }) => {
    await deleteSchedule(actor, exportId(params));
    return back(params, "Scheduled export deleted with its delivery log.", "/exports/schedules");
  },
});

export default function ScheduleDetail() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>Scheduled exports need the Pro plan</h2>
        <p>
          Your organization is on the {data.plan} plan. <Link to="/pricing">Compare plans</Link>
        </p>
      </div>
    );
  }
  const { schedule: s, logs } = data;
  const state = result && "formError" in result ? (result as FormState) : null;
  const secret = result && "secret" in result ? result.secret : null;
  const rowError = state && state.intent && state.intent !== "save" ? state : null;
  return (
    <div className="stack">
      <p>
        <Link to="/exports/schedules">← All scheduled exports</Link>
      </p>
      {data.notice ? (
        <div className="alert alert-success" role="status">
          <p>{data.notice}</p>
        </div>
      ) : null}
      {secret ? (
        <section className="card" aria-labelledby="secret-heading">
          <h2 id="secret-heading">Webhook signing secret</h2>
          <div className="alert alert-warning">
            <p>Saved. Copy the signing secret now: this is the only time it is shown.</p>
          </div>
          <div className="secret-box">
            <code data-testid="webhook-secret">{secret}</code>
            <CopyButton value={secret} />
          </div>
        </section>
      ) : null}
      {rowError ? <FormAlert state={rowError} /> : null}
      <section className="card" aria-labelledby="schedule-heading">
        <div className="card-header">
          <div>
            <h2 id="schedule-heading">{s.projectName ?? (s.projectId ? "Scheduled export" : DIGEST_LABEL)}</h2>
            <p>
              {data.description} · {s.format.toUpperCase()} by{" "}
              {s.deliveryMethod === "email" ? `e-mail to ${s.recipients.join(", ")}` : `webhook to ${s.webhookUrl}`} ·{" "}
              {s.isActive ? <span className="badge badge-success">Active</span> : <span className="badge badge-warning">Paused</span>}
            </p>
            <p className="muted">
              Next run: {s.isActive ? (data.next ?? "none") : "paused"} · Last run: {data.last ?? "never"}
            </p>
          </div>
        </div>
        {data.canManage ? (
          <div className="inline">
            <PostButton intent="run" className="btn btn-secondary">
              Run now
            </PostButton>
            <PostButton intent={s.isActive ? "pause" : "resume"} className="btn btn-secondary">
              {s.isActive ? "Pause" : "Resume"}
            </PostButton>
            <PostButton intent="delete" className="btn btn-danger">
              Delete
            </PostButton>
          </div>
        ) : (
          <p className="muted">
            {s.projectId
              ? "You can read this schedule; only people who can edit the project may change or run it."
              : "You can read this digest; only its creator, owners and admins may change or run it."}
          </p>
        )}
      </section>
      <section className="card" aria-labelledby="log-heading">
        <h2 id="log-heading">Delivery log</h2>
        {logs.length === 0 ? (
          <div className="empty-state">
            <h3>No deliveries yet</h3>
            <p>Deliveries appear here when the schedule runs, or after “Run now”.</p>
          </div>
        ) : (
          <TableScroll label="Delivery log">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Status</th>
                  <th scope="col">To</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {logs.map((l) => (
                  <tr key={l.id}>
                    <td>{l.when}</td>
                    <td>
                      <DeliveryStatus status={l.status} />
                    </td>
                    <td className="clamp">{l.recipients.join(", ")}</td>
                    <td className="clamp">{l.error ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      {data.canManage ? (
        <section className="card" aria-labelledby="edit-heading" style={{ maxWidth: 680 }}>
          <h2 id="edit-heading">Edit</h2>
          <FormAlert state={rowError ? null : state} />
          <Form method="post" className="form" noValidate>
            <input type="hidden" name="intent" value="save" />
            <ScheduledExportFields
              state={rowError ? null : state}
              defaults={data.values}
              projects={data.projects}
              allowDigest={data.allowDigest}
              statuses={data.statuses}
              timezones={data.timezones}
            />
            <div>
              <SubmitButton pendingText="Saving…">Save changes</SubmitButton>
            </div>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
