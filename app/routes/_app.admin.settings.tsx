import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormAlert, SubmitButton, Notice } from "~/components/forms";
import { isAdmin } from "~/domain/actor";
import { textOn } from "~/domain/branding/brand-style";
import { updateOrgSettingsSchema } from "~/domain/orgs/orgs.schema";
import { getOrgSettings, updateOrgSettings } from "~/domain/orgs/settings.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Organization settings · Administration · PRD Studio" }];

const NOTIFICATIONS = [
  ["emailDigest", "E-mail digest", "A periodic summary of activity for members who opted in."],
  ["memberJoinedAlerts", "New member alerts", "Tell admins when someone joins."],
  ["billingAlerts", "Billing alerts", "Tell owners and admins about plan limits and payments."],
  ["securityAlerts", "Security alerts", "Tell owners and admins about security-relevant changes."],
] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [settings, { flash, headers }] = await Promise.all([getOrgSettings(actor), readFlash(request)]);
  return withHeaders({ allowed: true as const, settings, flash }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const input = updateOrgSettingsSchema.parse({
      name: values.name,
      settings: {
        branding: {
          primaryColor: values["settings.branding.primaryColor"] || undefined,
          accentColor: values["settings.branding.accentColor"] || undefined,
          companyName: values["settings.branding.companyName"] ?? "",
        },
        notifications: Object.fromEntries(NOTIFICATIONS.map(([key]) => [key, values[`settings.notifications.${key}`] === "on"])),
      },
    });
    await updateOrgSettings(actor, input);
    return redirectWithNotice("/admin/settings", "Organization settings saved.");
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function OrganizationSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) return null;
  const state = result && "formError" in result ? result : null;
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const s = data.settings;
  const checked = (key: string, fallback: boolean) => (state?.values ? state.values[`settings.notifications.${key}`] === "on" : fallback);
  return (
    <div className="stack" style={{ maxWidth: 640 }}>
      <Notice message={notice} />
      <FormAlert state={state} />
      <Form method="post" className="stack" noValidate>
        <section className="card" aria-labelledby="general-heading">
          <h2 id="general-heading">General</h2>
          <Field label="Organization name" name="name" state={state} defaultValue={s.name} required hint="1 to 100 characters." />
          <p className="muted">
            Plan: <span className="badge badge-brand">{s.plan.name}</span>
          </p>
        </section>
        <section className="card" aria-labelledby="branding-heading">
          <h2 id="branding-heading">Branding</h2>
          <Field
            label="Company name"
            name="settings.branding.companyName"
            state={state}
            defaultValue={s.branding.companyName}
            hint="Shown on shared pages and e-mails."
          />
          <Field
            label="Primary colour"
            name="settings.branding.primaryColor"
            state={state}
            defaultValue={s.branding.primaryColor}
            hint="A hex code such as #4f46e5."
          />
          <Field
            label="Accent colour"
            name="settings.branding.accentColor"
            state={state}
            defaultValue={s.branding.accentColor}
            hint="A hex code such as #0ea5e9."
          />
          <p className="muted">
            Preview:{" "}
            <span className="badge" style={{ background: s.branding.primaryColor, color: textOn(s.branding.primaryColor) }}>
              Primary
            </span>{" "}
            <span className="badge" style={{ background: s.branding.accentColor, color: textOn(s.branding.accentColor) }}>
              Accent
            </span>
          </p>
        </section>
        <section className="card" aria-labelledby="notifications-heading">
          <h2 id="notifications-heading">Notifications</h2>
          <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="sr-only">Organization notifications</legend>
            {NOTIFICATIONS.map(([key, label, hint]) => (
              <div key={key}>
                <label>
                  <input
                    type="checkbox"
                    name={`settings.notifications.${key}`}
                    defaultChecked={checked(key, s.notifications[key])}
                    aria-describedby={`hint-${key}`}
                  />{" "}
                  {label}
                </label>
                <span className="hint" id={`hint-${key}`} style={{ display: "block" }}>
                  {hint}
                </span>
              </div>
            ))}
          </fieldset>
        </section>
        <div>
          <SubmitButton pendingText="Saving…" className="btn btn-primary">
            Save settings
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
