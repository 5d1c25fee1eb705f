import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton } from "~/components/forms";
import { AppError } from "~/domain/errors";
import { PREFERENCE_LABELS, unsubscribeSchema, type PreferenceKey } from "~/domain/notifications/notifications.schema";
import { peekUnsubscribe, unsubscribe } from "~/domain/notifications/unsubscribe.server";
import { formFailure, formValues } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Unsubscribe · PRD Studio" }];

// Public (no sign-in). GET only shows what the link does: link scanners must
// not spend the single-use token; the POST does the work.
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return { token, problem: "This page needs the link from one of our e-mails." };
  try {
    const { category, email } = await peekUnsubscribe(token);
    return { token, category, email, problem: null };
  } catch (error) {
    if (error instanceof AppError) return { token, problem: error.message };
    throw error;
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const values = await formValues(request);
  try {
    const input = unsubscribeSchema.parse({ token: values.token, category: values.scope === "all" ? "emailNotifications" : undefined });
    return await unsubscribe(input.token, input.category);
  } catch (error) {
    return formFailure(error, values);
  }
}

const label = (key: PreferenceKey) => PREFERENCE_LABELS[key].label.toLowerCase();

export default function Unsubscribe() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main className="auth-page" id="main">
      <div className="auth-card card">
        <h1>Unsubscribe</h1>
        {result && "preferences" in result ? (
          <div className="alert alert-success" role="status">
            <p>
              Done: {result.category === "emailNotifications" ? "we will not e-mail you any notifications" : `no more ${label(result.category)} notifications`}.
              You can change this any time in Settings → Notifications.
            </p>
          </div>
        ) : data.problem ? (
          <div className="alert alert-error" role="alert">
            <p>{data.problem}</p>
          </div>
        ) : (
          <>
            <FormAlert state={result && "formError" in result ? result : null} />
            <p>
              Stop notification e-mails to <strong>{"email" in data ? data.email : ""}</strong>?
            </p>
            <Form method="post" className="form">
              <input type="hidden" name="token" value={data.token} />
              <fieldset style={{ border: 0, padding: 0 }}>
                <legend>What to stop</legend>
                <label className="checkbox">
                  <input type="radio" name="scope" value="category" defaultChecked />
                  Only {"category" in data && data.category ? label(data.category) : "this kind of"} e-mails
                </label>
                <label className="checkbox">
                  <input type="radio" name="scope" value="all" />
                  All notification e-mails
                </label>
              </fieldset>
              <SubmitButton className="btn btn-primary" pendingText="Unsubscribing…">
                Unsubscribe
              </SubmitButton>
            </Form>
          </>
        )}
        <p className="auth-footer">
          <Link to="/sign-in">Sign in to PRD Studio</Link>
        </p>
      </div>
    </main>
  );
}
