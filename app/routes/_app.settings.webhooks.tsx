import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { Field, FieldNotes, type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { PLAN_NAMES } from "~/domain/billing/plans";
import { EVENT_CHOICES, EVENT_FIELD_PREFIX, webhookFormInput } from "~/domain/webhooks/webhooks.form";
import { createWebhookSchema } from "~/domain/webhooks/webhooks.schema";
import { createWebhook, listWebhooks, webhookQuota } from "~/domain/webhooks/webhooks.server";
import { readFlash } from "~/http/ui/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Webhooks · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [webhooks, quota, { flash, headers }] = await Promise.all([listWebhooks(actor), webhookQuota(actor), readFlash(request)]);
  const notice = flash?.kind === "notice" ? flash.message : null;
  return withHeaders({ allowed: true as const, webhooks, ...quota, plan: PLAN_NAMES[actor.org.plan], notice }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const webhook = await createWebhook(actor, createWebhookSchema.parse(webhookFormInput(values)));
    // Not a redirect: the secret is shown in this response only, never stored for a later page.
    return { created: { id: webhook.id, name: webhook.name, secret: webhook.secret, header: webhook.signatureHeaderName } };
  } catch (error) {
    return formFailure(error, values, ["secret"]);
  }
}

/** Checkboxes of the catalogue grouped by area, plus "All events" and one "all of this area" per group. */
export function EventPicker({ state, checked = [] }: { state?: FormState | null; checked?: string[] }) {
  const submitted = state?.values
    ? Object.keys(state.values)
        .filter((k) => k.startsWith(EVENT_FIELD_PREFIX))
        .map((k) => k.slice(EVENT_FIELD_PREFIX.length))
    : null;
  const on = new Set(submitted ?? checked);
  const error = state?.fieldErrors?.events ?? Object.entries(state?.fieldErrors ?? {}).find(([k]) => k.startsWith("events."))?.[1];
  const box = (value: string, label: string) => (
    <label className="checkbox" key={value}>
      <input type="checkbox" name={`${EVENT_FIELD_PREFIX}${value}`} value="on" defaultChecked={on.has(value)} /> {label}
    </label>
  );
  return (
    <fieldset
      className="stack"
      style={{ border: 0, padding: 0 }}
      aria-describedby={error ? "field-events-error" : "field-events-hint"}
      aria-invalid={error ? true : undefined}
    >
      <legend>Events</legend>
      {box("*", "All events (*), including ones added later")}
      {EVENT_CHOICES.map((g) => (
        <fieldset key={g.group} className="checkbox-list" style={{ border: 0, padding: 0 }}>
          <legend className="muted">{g.label}</legend>
          {g.events.length > 1 ? box(`${g.group}.*`, `All ${g.group}.* events`) : null}
          {g.events.map((name) => box(name, name))}
        </fieldset>
      ))}
      <FieldNotes id="field-events" hint="Each delivery is a POST of {event, timestamp, data}." error={error} />
    </fieldset>
  );
}

export default function Webhooks() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>Webhooks are managed by admins</h2>
        <p>Ask an owner or admin of your organization to connect PRD Studio to other tools.</p>
      </div>
    );
  }
  const state = result && "formError" in result ? (result as FormState) : null;
  const created = result && "created" in result ? result.created : null;
  const unlimited = data.limit === -1;
  const atLimit = !unlimited && data.used >= data.limit;
  return (
    <div className="stack">
      {created ? (
        <section className="card" aria-labelledby="new-hook-heading">
          <h2 id="new-hook-heading">Webhook “{created.name}” created</h2>
          <div className="alert alert-warning">
            <p>Copy the signing secret now: this is the only time it is shown.</p>
          </div>
          <div className="secret-box">
            <code data-testid="webhook-secret">{created.secret}</code>
            <CopyButton value={created.secret} />
          </div>
          <p className="muted" style={{ marginTop: 12 }}>
            Each delivery carries <code>{created.header}</code>: the hex HMAC-SHA256 of the raw body with this secret. Compare it in constant time.{" "}
            <Link to={`/settings/webhooks/${created.id}`}>Send a test delivery</Link>
          </p>
        </section>
      ) : null}
      {data.notice ? (
        <div className="alert alert-success" role="status">
          <p>{data.notice}</p>
        </div>
      ) : null}
      <section className="card" aria-labelledby="hooks-heading">
        <div className="card-header">
          <div>
            <h2 id="hooks-heading">Webhooks</h2>
            <p>
              PRD Studio POSTs events to these URLs as they happen, retrying failures for about 15 minutes.{" "}
              {unlimited
                ? "Your plan has no webhook limit."
                : data.limit === 0
                  ? `The ${data.plan} plan does not include webhooks.`
                  : `${data.used} of ${data.limit} used on the ${data.plan} plan.`}
            </p>
          </div>
        </div>
        {data.webhooks.length === 0 ? (
          <div className="empty-state">
            <h3>No webhooks yet</h3>
            <p>Add one to tell your chat, CRM or CI when projects and PRDs change.</p>
          </div>
        ) : (
          <TableScroll label="Webhooks">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.webhooks.map((w) => (
                  <tr key={w.id}>
                    <td>
                      <Link to={`/settings/webhooks/${w.id}`}>{w.name}</Link>
                    </td>
                    <td className="clamp">
                      <code>{w.url}</code>
                    </td>
                    <td>{w.events.join(", ")}</td>
                    <td>
                      {w.isActive ? (
                        <span className="badge badge-success">Active</span>
                      ) : (
                        <span className="badge badge-warning" title={w.disabledReason ?? undefined}>
                          {w.disabledReason ? "Switched off (failures)" : "Off"}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section className="card" aria-labelledby="create-hook-heading" style={{ maxWidth: 640 }}>
        <h2 id="create-hook-heading">Add a webhook</h2>
        {atLimit ? (
          <div className="alert alert-info">
            <p>
              {data.limit === 0
                ? `Webhooks are not included in the ${data.plan} plan. Upgrade to Starter (2 webhooks), Pro (10) or Enterprise (unlimited).`
                : `You have used all ${plural(data.limit, "webhook")} of the ${data.plan} plan. Delete one or upgrade for more.`}
            </p>
          </div>
        ) : null}
        <FormAlert state={state} />
        <Form method="post" className="form" noValidate hidden={atLimit}>
          <Field label="Name" name="name" state={state} placeholder="Slack relay" required />
          <Field
            label="URL"
            name="url"
            type="url"
            state={state}
            placeholder="https://example.com/hooks/prd"
            hint="http:// or https://; private and loopback addresses are refused."
            required
          />
          <EventPicker state={state} />
          <Field
            label="Signing secret (optional)"
            name="secret"
            type="password"
            state={state}
            autoComplete="off"
            hint="At least 16 characters. Leave empty and we generate one."
          />
          <Field label="Signature header" name="signatureHeaderName" state={state} defaultValue="x-webhook-signature" />
          <div>
            <SubmitButton pendingText="Adding…">Add webhook</SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
