import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { authenticateForm } from "~/http/ui/authenticator.server";
import { sessionCookie } from "~/http/session.server";
import { formFailure, formValues, requireAnonymous, safeRedirect } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Sign in · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const url = new URL(request.url);
  const notice = url.searchParams.has("reset")
    ? "Your password was changed. Sign in with the new one."
    : url.searchParams.has("signedOut")
      ? "You are signed out."
      : url.searchParams.has("accountDeleted")
        ? "Your account and its data were deleted. Thank you for using PRD Studio."
        : null;
  return { notice };
}

/**
 * The request the sign-in strategy reads: the same headers (user agent,
 * request id) and a form of just the two fields it needs, so the posted body
 * is read once (formValues, bounded) rather than cloned and parsed twice.
 */
function credentialsRequest(request: Request, values: Record<string, string>) {
  const headers = new Headers(request.headers);
  for (const name of ["Content-Type", "Content-Length", "Transfer-Encoding"]) headers.delete(name);
  const form = new URLSearchParams({ email: values.email ?? "", password: values.password ?? "" });
  return new Request(request.url, { method: "POST", headers, body: form });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const values = await formValues(request);
  try {
    const result = await authenticateForm(credentialsRequest(request, values), context);
    return redirect(safeRedirect(values.redirectTo), {
      headers: { "Set-Cookie": await sessionCookie(result.sessionId) },
    });
  } catch (error) {
    return formFailure(error, values, ["password"]);
  }
}

export default function SignIn() {
  const state = useActionData<typeof action>();
  const { notice } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  return (
    <>
      <div className="card">
        <h1>Sign in</h1>
        <p className="muted">Welcome back. Pick up where your team left off.</p>
        {notice && !state ? (
          <div className="alert alert-success" role="status">
            <p>{notice}</p>
          </div>
        ) : null}
        <FormAlert state={state} />
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Field label="E-mail" name="email" type="email" autoComplete="email" state={state} required autoFocus />
          <Field label="Password" name="password" type="password" autoComplete="current-password" state={state} required />
          <div className="form-row">
            <Link to="/forgot-password">Forgot your password?</Link>
          </div>
          <SubmitButton className="btn btn-block" pendingText="Signing in…">
            Sign in
          </SubmitButton>
        </Form>
      </div>
      <p className="auth-footer">
        New here? <Link to={`/sign-up${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>Create an account</Link>
      </p>
    </>
  );
}
