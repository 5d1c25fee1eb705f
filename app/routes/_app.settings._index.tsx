import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { currentAccount, resendVerification } from "~/domain/auth/auth.server";
import { PLAN_NAMES } from "~/domain/billing/plans";
import { requestMeta } from "~/http/context.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui.server";

export const meta: MetaFunction = () => [{ title: "Account · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return currentAccount(actor);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    await resendVerification({ email: actor.user.email }, requestMeta(request, context));
    return { sent: true as const };
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function AccountSettings() {
  const { user, organization } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="stack">
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <table className="table">
          <tbody>
            <tr>
              <th scope="row">Name</th>
              <td>{user.name}</td>
            </tr>
            <tr>
              <th scope="row">E-mail</th>
              <td>
                {user.email}{" "}
                {user.emailVerified ? (
                  <span className="badge badge-success">Confirmed</span>
                ) : (
                  <span className="badge badge-warning">Not confirmed</span>
                )}
              </td>
            </tr>
            <tr>
              <th scope="row">Timezone</th>
              <td>{user.timezone}</td>
            </tr>
          </tbody>
        </table>
        {!user.emailVerified ? (
          <Form method="post" className="inline" style={{ marginTop: 12 }}>
            {result && "sent" in result ? (
              <span role="status" className="badge badge-success">
                Sent — check your inbox (or the Outbox tab)
              </span>
            ) : null}
            {result && "formError" in result ? <span role="alert" className="field-error">{result.formError}</span> : null}
            <SubmitButton className="btn btn-secondary btn-sm" pendingText="Sending…">
              Resend confirmation e-mail
            </SubmitButton>
          </Form>
        ) : null}
      </section>
      <section className="card" aria-labelledby="org-heading">
        <h2 id="org-heading">Organization</h2>
        <table className="table">
          <tbody>
            <tr>
              <th scope="row">Name</th>
              <td>{organization.name}</td>
            </tr>
            <tr>
              <th scope="row">Your role</th>
              <td style={{ textTransform: "capitalize" }}>{organization.role}</td>
            </tr>
            <tr>
              <th scope="row">Plan</th>
              <td>
                <span className="badge badge-brand">{PLAN_NAMES[organization.plan]}</span>
              </td>
            </tr>
          </tbody>
        </table>
      </section>
    </div>
  );
}
