import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { forgotPasswordSchema } from "~/domain/auth/auth.schema";
import { requestPasswordReset } from "~/domain/auth/auth.server";
import { requestMeta } from "~/http/context.server";
import { formFailure, formValues } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Reset your password · PRD Studio" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const values = await formValues(request);
  try {
    const input = forgotPasswordSchema.parse(values);
    await requestPasswordReset(input, requestMeta(request, context));
    return { sent: true as const, email: input.email };
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const sent = result && "sent" in result;
  return (
    <>
      <div className="card">
        <h1>Reset your password</h1>
        {sent ? (
          <div className="alert alert-success" role="status">
            <p>
              If an account exists for <strong>{result.email}</strong>, we sent a link to choose a new password. It works once and expires in an hour.
            </p>
          </div>
        ) : (
          <>
            <p className="muted">Enter the e-mail you signed up with and we will send you a reset link.</p>
            <FormAlert state={result && !("sent" in result) ? result : null} />
            <Form method="post" className="form" noValidate>
              <Field label="E-mail" name="email" type="email" autoComplete="email" state={result && !("sent" in result) ? result : null} required autoFocus />
              <SubmitButton className="btn btn-block" pendingText="Sending…">
                Send reset link
              </SubmitButton>
            </Form>
          </>
        )}
      </div>
      <p className="auth-footer">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </>
  );
}
