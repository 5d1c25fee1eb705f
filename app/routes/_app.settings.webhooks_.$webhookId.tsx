import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { Field, type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { isAdmin } from "~/domain/actor";
import { webhookFormInput } from "~/domain/webhooks/webhooks.form";
import { updateWebhookSchema } from "~/domain/webhooks/webhooks.schema";
import { deleteWebhook, getWebhook, listDeliveries, sendTestDelivery, updateWebhook } from "~/domain/webhooks/webhooks.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { type IntentArgs, intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";
import { EventPicker } from "./_app.settings.webhooks";
import { DeliveryStatus } from "~/components/delivery-status";
import { TableScroll } from "~/components/table-scroll";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && "webhook" in data ? data.webhook.name : "Webhook"} · Webhooks · PRD Studio` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const id = params.webhookId ?? "";
  const [webhook, deliveries, { flash, headers }] = await Promise.all([
    orPageError(getWebhook(actor, id)),
    orPageError(listDeliveries(actor, id)),
    readFlash(request),
  ]);
  const notice = flash?.kind === "notice" ? flash.message : null;
  return withHeaders({ allowed: true as const, webhook, deliveries, notice }, { headers });
}

const webhookId = (params: IntentArgs["params"]) => params.webhookId ?? "";
const back = (params: IntentArgs["params"], message: string, to = `/settings/webhooks/${webhookId(params)}`) => redirectWithNotice(to, message);

const switchOnOff = async ({ actor, params, intent }: IntentArgs) => {
  await updateWebhook(actor, webhookId(params), { isActive: intent === "enable" });
  return back(params, intent === "enable" ? "Webhook switched on; its failure count starts again." : "Webhook switched off.");
};

export const action = intentAction(
  {
    update: async ({ actor, values, params }) => {
      await updateWebhook(actor, webhookId(params), updateWebhookSchema.parse(webhookFormInput(values)));
      return back(params, "Webhook saved.");
    },
    test: async ({ actor, params }) => {
      await sendTestDelivery(actor, webhookId(params));
      return back(params, "Test delivery queued. Reload in a moment to see the result below.");
    },
    enable: switchOnOff,
    disable: switchOnOff,
    delete: async ({ actor, values, params }) => {
      await deleteWebhook(actor, webhookId(params));
      return back(params, `Webhook “${values.name ?? ""}” deleted with its delivery log.`, "/settings/webhooks");
    },
  },
  { secretFields: ["secret"] },
);

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" }) : "—");
export default function WebhookDetail() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormState | undefined;
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>Webhooks are managed by admins</h2>
        <p>Ask an owner or admin of your organization.</p>
      </div>
    );
  }
  const { webhook: w, deliveries } = data;
  const state = result?.formError ? result : null;
  return (
    <div className="stack">
      <p>
        <Link to="/settings/webhooks">← All webhooks</Link>
      </p>
      {data.notice ? (
        <div className="alert alert-success" role="status">
          <p>{data.notice}</p>
        </div>
      ) : null}
      {w.disabledReason ? (
        <div className="alert alert-warning" role="status">
          <p>{w.disabledReason}. Fix the receiver, then switch the webhook on again.</p>
        </div>
      ) : null}
      <section className="card" aria-labelledby="hook-heading">
        <div className="card-header">
          <div>
            <h2 id="hook-heading">{w.name}</h2>
            <p>
              <code>{w.url}</code> · {w.isActive ? <span className="badge badge-success">Active</span> : <span className="badge badge-warning">Off</span>} ·
              secret <code>{w.secretHint}</code> · signature in <code>{w.signatureHeaderName}</code>
            </p>
          </div>
        </div>
        <div className="inline">
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value="test" />
            <SubmitButton className="btn btn-secondary" pendingText="Queuing…">
              Send test
            </SubmitButton>
          </Form>
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value={w.isActive ? "disable" : "enable"} />
            <button type="submit" className="btn btn-secondary">
              {w.isActive ? "Switch off" : "Switch on"}
            </button>
          </Form>
        </div>
      </section>
      <section className="card" aria-labelledby="log-heading">
        <h2 id="log-heading">Recent deliveries</h2>
        {deliveries.length === 0 ? (
          <div className="empty-state">
            <h3>No deliveries yet</h3>
            <p>Send a test, or wait for a subscribed event.</p>
          </div>
        ) : (
          <TableScroll label="Recent deliveries">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Response</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Created</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <code>{d.event}</code>
                    </td>
                    <td>
                      <DeliveryStatus status={d.status} />
                    </td>
                    <td>{d.attempts}</td>
                    <td>{d.responseStatus ?? "—"}</td>
                    <td>{d.durationMs === null ? "—" : `${d.durationMs} ms`}</td>
                    <td>{when(d.createdAt)}</td>
                    <td className="clamp">{d.error ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section className="card" aria-labelledby="edit-heading" style={{ maxWidth: 640 }}>
        <h2 id="edit-heading">Edit</h2>
        <FormAlert state={state} />
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="update" />
          <Field label="Name" name="name" state={state} defaultValue={w.name} required />
          <Field label="URL" name="url" type="url" state={state} defaultValue={w.url} required />
          <EventPicker state={state} checked={w.events} />
          <Field
            label="New signing secret (optional)"
            name="secret"
            type="password"
            state={state}
            autoComplete="off"
            hint="Leave empty to keep the current secret."
          />
          <Field label="Signature header" name="signatureHeaderName" state={state} defaultValue={w.signatureHeaderName} />
          <div>
            <SubmitButton pendingText="Saving…">Save changes</SubmitButton>
          </div>
        </Form>
      </section>
      <section className="card danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete this webhook</h2>
        <p>Deliveries stop at once and the delivery log is removed.</p>
        <PostButton intent="delete" fields={{ name: w.name }} className="btn btn-danger">
          Delete webhook
        </PostButton>
      </section>
    </div>
  );
}
