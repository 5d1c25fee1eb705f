import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { resetPasswordSchema } from "~/domain/auth/auth.schema";
import { resetPassword } from "~/domain/auth/auth.server";
import { PASSWORD_RULE } from "~/domain/auth/password";
import { requestMeta } from "~/http/context.server";
import { clearSessionCookie } from "~/http/session.server";
import { formFailure, formValues } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password · PRD Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const values = await formValues(request);
  try {
    await resetPassword(resetPasswordSchema.parse(values), requestMeta(request, context));
    return redirect("/sign-in?reset=1", { headers: { "Set-Cookie": await clearSessionCookie() } });
  } catch (error) {
    return formFailure(error, values, ["password", "confirmPassword"]);
  }
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  if (!token) {
    return (
      <div className="card">
        <h1>Link incomplete</h1>
        <p>This page needs the link from your reset e-mail. </p>
        <Link className="btn" to="/forgot-password">
          Request a new link
        </Link>
      </div>
    );
  }
  const tokenProblem = state?.fieldErrors?.token;
  return (
    <div className="card">
      <h1>Choose a new password</h1>
      <FormAlert state={state} />
      {tokenProblem || (state?.formError && /link/i.test(state.formError)) ? (
        <p>
          <Link to="/forgot-password">Request a new reset link</Link>
        </p>
      ) : null}
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="token" value={token} />
        <Field label="New password" name="password" type="password" autoComplete="new-password" hint={PASSWORD_RULE} state={state} required autoFocus />
        <Field label="Confirm new password" name="confirmPassword" type="password" autoComplete="new-password" state={state} required />
        <SubmitButton className="btn btn-block" pendingText="Saving…">
          Save new password
        </SubmitButton>
      </Form>
    </div>
  );
}
