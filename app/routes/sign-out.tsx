import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { signOut } from "~/domain/auth/auth.server";
import { clearSessionCookie } from "~/http/session.server";
import { formValues, getUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Sign out · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await getUiActor(request, context))) throw redirect("/sign-in");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await formValues(request);
  const actor = await getUiActor(request, context);
  if (actor) await signOut(actor);
  return redirect("/sign-in?signedOut=1", { headers: { "Set-Cookie": await clearSessionCookie() } });
}

export default function SignOut() {
  return (
    <main className="auth-page">
      <div className="auth-card card">
        <h1>Sign out?</h1>
        <p className="muted">You will need your password to come back.</p>
        <Form method="post" className="inline">
          <button className="btn" type="submit">
            Sign out
          </button>
          <Link className="btn btn-secondary" to="/home">
            Stay signed in
          </Link>
        </Form>
      </div>
    </main>
  );
}
