import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { changePasswordSchema } from "~/domain/auth/auth.schema";
import { changePassword } from "~/domain/auth/auth.server";
import { PASSWORD_RULE } from "~/domain/auth/password";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Security · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUiActor(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    await changePassword(actor, changePasswordSchema.parse(values));
    return { changed: true as const };
  } catch (error) {
    return formFailure(error, values, ["currentPassword", "newPassword"]);
  }
}

export default function SecuritySettings() {
  const result = useActionData<typeof action>();
  const state = result && "changed" in result ? null : result;
  return (
    <section className="card" aria-labelledby="password-heading" style={{ maxWidth: 520 }}>
      <h2 id="password-heading">Change password</h2>
      <p className="muted">Changing your password signs out your other sessions.</p>
      {result && "changed" in result ? (
        <div className="alert alert-success" role="status">
          <p>Your password was changed. Other sessions were signed out.</p>
        </div>
      ) : null}
      <FormAlert state={state} />
      <Form method="post" className="form" noValidate>
        <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" state={state} required />
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" hint={PASSWORD_RULE} state={state} required />
        <div>
          <SubmitButton pendingText="Saving…">Change password</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
