import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { type FormState, FieldNotes, FormAlert, SubmitButton } from "~/components/forms";
import { sessionExists } from "~/domain/sessions/sessions.server";
import { isAdmin } from "~/domain/actor";
import { confirmNameSchema, deleteAllProjects, deleteOrganization } from "~/domain/admin/danger.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";
import { clearSessionCookie } from "~/http/session.server";

export const meta: MetaFunction = () => [{ title: "Danger zone · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const deleted = new URL(request.url).searchParams.get("deleted");
  return { allowed: isAdmin(actor), isOwner: actor.role === "owner", orgName: actor.org.name, deleted };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const intent = values.intent ?? "";
  try {
    const { confirmName } = confirmNameSchema.parse(values);
    if (intent === "delete-all-projects") {
      const { deleted } = await deleteAllProjects(actor, confirmName);
      return redirect(`/admin/danger?deleted=${deleted}`);
    }
    if (intent === "delete-organization") {
      await deleteOrganization(actor, confirmName);
      if (await sessionExists(actor.sessionId)) return redirect("/home");
      return redirect("/sign-in", { headers: { "Set-Cookie": await clearSessionCookie() } });
    }
    throw new Response("Unknown action", { status: 400 });
  } catch (error) {
    if (error instanceof Response) throw error;
    return formFailure(error, values, [], { intent });
  }
}

function ConfirmForm({ intent, orgName, state, button }: { intent: string; orgName: string; state: FormState | null; button: string }) {
  const mine = state?.intent === intent ? state : null;
  const id = `${intent}-confirm`;
  const error = mine?.fieldErrors?.confirmName;
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value={intent} />
      <FormAlert state={mine} />
      <div className="field">
        <label htmlFor={id}>Type the organization name, {orgName}, to confirm</label>
        <input
          id={id}
          name="confirmName"
          autoComplete="off"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <FieldNotes id={id} error={error} />
      </div>
      <SubmitButton className="btn btn-danger" name="intent" value={intent} pendingText="Deleting…">
        {button}
      </SubmitButton>
    </Form>
  );
}

export default function AdminDanger() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormState | undefined;
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>The danger zone is for owners and admins</h2>
      </div>
    );
  }
  return (
    <div className="stack">
      {data.deleted !== null ? (
        <div className="alert alert-success" role="status">
          <p>{data.deleted} project(s) deleted.</p>
        </div>
      ) : null}
      <section className="card danger-zone" aria-labelledby="delete-projects-heading">
        <h2 id="delete-projects-heading">Delete all projects</h2>
        <p>Deletes every project of {data.orgName} with its PRD, versions, files, comments and share links. This cannot be undone.</p>
        <ConfirmForm intent="delete-all-projects" orgName={data.orgName} state={result ?? null} button="Delete all projects" />
      </section>
      <section className="card danger-zone" aria-labelledby="delete-org-heading">
        <h2 id="delete-org-heading">Delete organization</h2>
        {data.isOwner ? (
          <>
            <p>
              Deletes {data.orgName} and everything in it: projects, teams, templates, keys, webhooks and settings. Members keep their accounts and continue in
              their other organizations. This cannot be undone.
            </p>
            <ConfirmForm intent="delete-organization" orgName={data.orgName} state={result ?? null} button="Delete organization" />
          </>
        ) : (
          <p className="muted">Only the owner can delete the organization.</p>
        )}
      </section>
    </div>
  );
}
