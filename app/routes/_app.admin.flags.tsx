import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { Field, FieldNotes, FormAlert, SubmitButton } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { PLAN_IDS, PLAN_NAMES } from "~/domain/billing/plans";
import { upsertFlagSchema } from "~/domain/flags/flags.schema";
import { deleteFlag, listFlags, upsertFlag } from "~/domain/flags/store.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor, type FormValues } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Feature flags · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return { flags: await orPageError(listFlags(actor)) };
}

const list = (v: string | undefined) => (v ?? "").split(/[\s,]+/).filter(Boolean);

/** The form's flat fields as the API's upsert body. */
function fromForm(values: FormValues) {
  return upsertFlagSchema.parse({
    key: values.key,
    description: values.description,
    enabled: values.enabled ?? "false",
    rolloutPercentage: values.rolloutPercentage ?? "",
    rules: {
      allowUserIds: list(values.allowUserIds),
      denyUserIds: list(values.denyUserIds),
      allowOrgIds: list(values.allowOrgIds),
      denyOrgIds: list(values.denyOrgIds),
      plans: PLAN_IDS.filter((p) => values[`plan_${p}`]),
    },
  });
}

export const action = intentAction({
  upsert: async ({ actor, values }) => {
    const { flag, created } = await upsertFlag(actor, fromForm(values));
    return { message: `${flag.key} ${created ? "created" : "saved"}.` };
  },
  delete: async ({ actor, values }) => {
    await deleteFlag(actor, values.key ?? "");
    return { message: `${values.key} was removed; built-in keys are back to their default.` };
  },
});

function describeRules(f: {
  rolloutPercentage: number | null;
  rules: { allowUserIds: string[]; denyUserIds: string[]; allowOrgIds: string[]; denyOrgIds: string[]; plans: string[] };
}) {
  const parts: string[] = [];
  if (f.rules.allowUserIds.length || f.rules.denyUserIds.length) parts.push(`users +${f.rules.allowUserIds.length}/−${f.rules.denyUserIds.length}`);
  if (f.rules.allowOrgIds.length || f.rules.denyOrgIds.length) parts.push(`orgs +${f.rules.allowOrgIds.length}/−${f.rules.denyOrgIds.length}`);
  if (f.rules.plans.length) parts.push(`plans: ${f.rules.plans.join(", ")}`);
  if (f.rolloutPercentage !== null) parts.push(`${f.rolloutPercentage}% of organizations`);
  return parts.join(" · ") || "—";
}

export default function FlagsAdmin() {
  const { flags } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && !("message" in result) ? result : null;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Feature flags</h1>
          <p>Evaluated per caller: user deny/allow, organization deny/allow, plan list, percentage roll-out, then the default.</p>
        </div>
      </div>
      <div className="stack">
        {result && "message" in result ? (
          <div className="alert alert-success" role="status">
            <p>{result.message}</p>
          </div>
        ) : null}
        <section className="card" aria-labelledby="flags-heading">
          <h2 id="flags-heading">Flags</h2>
          {flags.length === 0 ? (
            <div className="empty-state">
              <h3>No flags</h3>
              <p>Create one with the form below.</p>
            </div>
          ) : (
            <TableScroll label="Feature flags">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Default</th>
                    <th scope="col">Rules</th>
                    <th scope="col">Source</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {flags.map((f) => (
                    <tr key={f.key}>
                      <td>
                        <code>{f.key}</code>
                        {f.description ? <div className="muted">{f.description}</div> : null}
                      </td>
                      <td>{f.enabled ? <span className="badge badge-success">On</span> : <span className="badge">Off</span>}</td>
                      <td>{describeRules(f)}</td>
                      <td>{f.source === "stored" ? "Stored" : "Built-in"}</td>
                      <td>
                        {f.source === "stored" ? (
                          <PostButton intent="delete" fields={{ key: f.key }} label={`Remove ${f.key}`} className="btn btn-danger btn-sm">
                            Remove
                          </PostButton>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
        <section className="card" aria-labelledby="upsert-heading" style={{ maxWidth: 640 }}>
          <h2 id="upsert-heading">Create or update a flag</h2>
          <p className="muted">Saving an existing key replaces its settings with this form's values.</p>
          <FormAlert state={state} />
          <Form method="post" className="form" noValidate>
            <input type="hidden" name="intent" value="upsert" />
            <Field label="Key" name="key" state={state} placeholder="transcription" hint="Lowercase letters, digits, _ . -" required />
            <Field label="Description" name="description" state={state} />
            <div className="field">
              <input type="hidden" name="enabled" value="false" />
              <label className="checkbox">
                <input type="checkbox" name="enabled" value="true" defaultChecked={state?.values?.enabled === "true"} /> On by default
              </label>
            </div>
            <Field
              label="Roll-out percentage (optional)"
              name="rolloutPercentage"
              type="number"
              min="0"
              state={state}
              hint="0–100 of organizations, chosen by a stable hash. Empty: no roll-out, the default decides."
            />
            <fieldset className="field">
              <legend>Only these plans (none checked: every plan)</legend>
              {PLAN_IDS.map((p) => (
                <label key={p} className="checkbox">
                  <input type="checkbox" name={`plan_${p}`} value="on" defaultChecked={Boolean(state?.values?.[`plan_${p}`])} /> {PLAN_NAMES[p]}
                </label>
              ))}
              <FieldNotes id="field-plans" error={state?.fieldErrors?.["rules.plans"]} />
            </fieldset>
            {(["allowUserIds", "denyUserIds", "allowOrgIds", "denyOrgIds"] as const).map((name) => (
              <div className="field" key={name}>
                <label htmlFor={`field-${name}`}>
                  {
                    {
                      allowUserIds: "Always on for user ids",
                      denyUserIds: "Always off for user ids",
                      allowOrgIds: "Always on for organization ids",
                      denyOrgIds: "Always off for organization ids",
                    }[name]
                  }
                </label>
                <textarea id={`field-${name}`} name={name} rows={2} defaultValue={state?.values?.[name] ?? ""} aria-describedby={`field-${name}-hint`} />
                <FieldNotes id={`field-${name}`} hint="Separate ids with commas, spaces or new lines." error={state?.fieldErrors?.[`rules.${name}`]} />
              </div>
            ))}
            <div>
              <SubmitButton pendingText="Saving…">Save flag</SubmitButton>
            </div>
          </Form>
        </section>
      </div>
    </>
  );
}
