import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { registerSchema } from "~/domain/auth/auth.schema";
import { register } from "~/domain/auth/auth.server";
import { PASSWORD_RULE } from "~/domain/auth/password";
import { requestMeta } from "~/http/context.server";
import { sessionCookie } from "~/http/session.server";
import { formFailure, formValues, requireAnonymous, safeRedirect } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Create your account · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const values = await formValues(request);
  try {
    const input = registerSchema.parse({
      ...values,
      timezone: values.timezone || undefined,
      inviteToken: values.inviteToken || undefined,
    });
    const { sessionId } = await register(input, requestMeta(request, context));
    return redirect(safeRedirect(values.redirectTo, "/onboarding"), {
      headers: { "Set-Cookie": await sessionCookie(sessionId) },
    });
  } catch (error) {
    return formFailure(error, values, ["password"]);
  }
}

export default function SignUp() {
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [timezone, setTimezone] = useState("");
  useEffect(() => setTimezone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const invite = params.get("invite") ?? "";
  return (
    <>
      <div className="card">
        <h1>Create your account</h1>
        <p className="muted">{invite ? "Accept your invitation and join your team." : "Turn an idea into a strong PRD in one conversation."}</p>
        <FormAlert state={state} />
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          <input type="hidden" name="inviteToken" value={invite} />
          <input type="hidden" name="timezone" value={state?.values?.timezone ?? timezone} />
          <Field label="Full name" name="name" autoComplete="name" state={state} required autoFocus />
          <Field label="Work e-mail" name="email" type="email" autoComplete="email" state={state} required />
          <Field label="Password" name="password" type="password" autoComplete="new-password" state={state} hint={PASSWORD_RULE} required />
          <SubmitButton className="btn btn-block" pendingText="Creating your account…">
            Create account
          </SubmitButton>
        </Form>
      </div>
      <p className="auth-footer">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </>
  );
}
