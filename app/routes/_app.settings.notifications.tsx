import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton, Notice } from "~/components/forms";
import { PREFERENCE_KEYS, PREFERENCE_LABELS } from "~/domain/notifications/notifications.schema";
import { getMyPreferences, updateMyPreferences } from "~/domain/notifications/preferences.server";
import { readFlash, setFlash } from "~/http/ui/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Notifications · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const [preferences, { flash, headers }] = await Promise.all([getMyPreferences(actor), readFlash(request)]);
  return withHeaders({ preferences, notice: flash?.kind === "notice" ? flash.message : null }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    // An unchecked box is absent from the form: every key is set explicitly.
    await updateMyPreferences(actor, Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, values[k] === "on"])));
    return redirect("/settings/notifications", {
      headers: { "Set-Cookie": await setFlash({ kind: "notice", message: "Notification preferences saved." }) },
    });
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function NotificationSettings() {
  const { preferences, notice } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <div className="stack">
      <Notice message={notice} />
      <section className="card" aria-labelledby="notif-prefs-heading">
        <h2 id="notif-prefs-heading">Notifications</h2>
        <p className="muted">A category you turn off is neither shown in the app nor e-mailed. Every e-mail has a one-click unsubscribe link.</p>
        <FormAlert state={state && "formError" in state ? state : null} />
        <Form method="post" className="form">
          <fieldset className="stack" style={{ border: 0, padding: 0 }}>
            <legend className="sr-only">Notification categories</legend>
            {PREFERENCE_KEYS.map((key) => (
              <div key={key}>
                <label className="checkbox" htmlFor={`pref-${key}`}>
                  <input type="checkbox" id={`pref-${key}`} name={key} defaultChecked={preferences[key]} aria-describedby={`pref-${key}-hint`} />
                  {PREFERENCE_LABELS[key].label}
                </label>
                <div className="hint muted" id={`pref-${key}-hint`}>
                  {PREFERENCE_LABELS[key].hint}
                </div>
              </div>
            ))}
          </fieldset>
          <div>
            <SubmitButton className="btn btn-primary" pendingText="Saving…">
              Save preferences
            </SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
