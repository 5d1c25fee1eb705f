import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton } from "~/components/forms";
import { verifyEmailSchema } from "~/domain/auth/auth.schema";
import { verifyEmail } from "~/domain/auth/auth.server";
import { formFailure, formValues, getUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail · PRD Studio" }];

// The e-mail link opens this page; confirming is a POST so that link
// scanners and prefetchers cannot spend the single-use token.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const signedIn = Boolean(await getUiActor(request, context));
  return { token: new URL(request.url).searchParams.get("token") ?? "", signedIn };
}

export async function action({ request }: ActionFunctionArgs) {
  const values = await formValues(request);
  try {
    return await verifyEmail(verifyEmailSchema.parse(values));
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function VerifyEmail() {
  const { token, signedIn } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const next = signedIn ? "/home" : "/sign-in";
  if (result && "verified" in result) {
    return (
      <div className="card">
        <h1>E-mail confirmed</h1>
        <div className="alert alert-success" role="status">
          <p>Thanks, your e-mail address is confirmed.</p>
        </div>
        <Link className="btn" to={next}>
          Continue
        </Link>
      </div>
    );
  }
  return (
    <div className="card">
      <h1>Confirm your e-mail</h1>
      <FormAlert state={result && !("verified" in result) ? result : null} />
      {token ? (
        <Form method="post" className="form">
          <input type="hidden" name="token" value={token} />
          <p className="muted">One click and your account is fully set up.</p>
          <SubmitButton className="btn btn-block" pendingText="Confirming…">
            Confirm my e-mail
          </SubmitButton>
        </Form>
      ) : (
        <p>This page needs the link from your confirmation e-mail.</p>
      )}
      <p className="auth-footer">
        <Link to={next}>{signedIn ? "Back to PRD Studio" : "Back to sign in"}</Link>
      </p>
    </div>
  );
}
