import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton } from "~/components/forms";
import { AppError } from "~/domain/errors";
import { acceptInvitation, verifyInvitation } from "~/domain/orgs/invitation-admin.server";
import { formFailure, formValues, getUiActor, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Invitation · PRD Studio" }];

// Public page. GET only shows the invitation (link scanners must not spend the
// single-use token); accepting is a POST by the signed-in invitee.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  const actor = await getUiActor(request, context);
  const me = actor ? { email: actor.user.email, name: actor.user.name } : null;
  try {
    const invitation = await verifyInvitation(token);
    return { token, invitation, me, problem: null };
  } catch (error) {
    if (error instanceof AppError) {
      const problem =
        error.code === "TOKEN_EXPIRED"
          ? "This invitation has expired. Ask the person who invited you to send a new one."
          : "This invitation link is no longer valid: it was used, cancelled or replaced by a newer one.";
      return { token, invitation: null, me, problem };
    }
    throw error;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    await acceptInvitation(actor, params.token ?? "");
    return redirect("/home");
  } catch (error) {
    return formFailure(error, values);
  }
}

const article = (role: string) => (role === "admin" ? "an admin" : `a ${role}`);

export default function Invite() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const inv = data.invitation;
  const here = `/invite/${encodeURIComponent(data.token)}`;
  const matches = inv && data.me && data.me.email.toLowerCase() === inv.email.toLowerCase();
  return (
    <main className="auth-page" id="main">
      <div className="auth-card card">
        <h1>{inv ? `Join ${inv.organization.name}` : "Invitation"}</h1>
        {!inv ? (
          <div className="alert alert-error" role="alert">
            <p>{data.problem}</p>
          </div>
        ) : (
          <>
            <p>
              {inv.invitedBy ?? "Someone"} invited <strong>{inv.email}</strong> to join <strong>{inv.organization.name}</strong> as {article(inv.role)}.
            </p>
            {inv.message ? <blockquote className="muted">“{inv.message}”</blockquote> : null}
            <FormAlert state={result && "formError" in result ? result : null} />
            {matches ? (
              <Form method="post" className="form">
                <SubmitButton className="btn btn-primary" pendingText="Joining…">
                  Accept invitation
                </SubmitButton>
              </Form>
            ) : data.me ? (
              <div className="alert alert-info">
                <p>
                  You are signed in as {data.me.email}, but this invitation is for {inv.email}. <Link to={`/sign-out`}>Sign out</Link> and sign in with the
                  invited address.
                </p>
              </div>
            ) : (
              <p className="inline">
                {inv.hasAccount ? (
                  <Link className="btn btn-primary" to={`/sign-in?redirectTo=${encodeURIComponent(here)}`}>
                    Sign in to accept
                  </Link>
                ) : (
                  <Link className="btn btn-primary" to={`/sign-up?invite=${encodeURIComponent(data.token)}&redirectTo=%2Fhome`}>
                    Create an account to join
                  </Link>
                )}
                <Link
                  to={
                    inv.hasAccount ? `/sign-up?invite=${encodeURIComponent(data.token)}&redirectTo=%2Fhome` : `/sign-in?redirectTo=${encodeURIComponent(here)}`
                  }
                >
                  {inv.hasAccount ? "Create a new account instead" : "I already have an account"}
                </Link>
              </p>
            )}
            <p className="muted">The invitation expires on {new Date(inv.expiresAt).toLocaleDateString("en-GB", { dateStyle: "medium" })}.</p>
          </>
        )}
      </div>
    </main>
  );
}
