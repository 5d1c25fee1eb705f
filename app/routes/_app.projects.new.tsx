import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { createProjectSchema, PRIORITIES } from "~/domain/projects/projects.schema";
import { createProject } from "~/domain/projects/projects.server";
import { listTemplates } from "~/domain/templates/templates.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui.server";

export const meta: MetaFunction = () => [{ title: "New project · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (actor.role === "viewer") throw new Response("Viewers cannot create projects", { status: 403 });
  const templates = await listTemplates(actor, {});
  return {
    templates: templates.map((t) => ({ id: t.id, name: t.name, initialQuestion: t.initialQuestion })),
    selected: new URL(request.url).searchParams.get("templateId") ?? "",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const project = await createProject(actor, createProjectSchema.parse(values));
    return redirect(`/projects/${project.id}`);
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function NewProject() {
  const state = useActionData<typeof action>();
  const { templates, selected } = useLoaderData<typeof loader>();
  const chosen = templates.find((t) => t.id === (state?.values?.templateId ?? selected));
  return (
    <>
      <div className="page-header">
        <div>
          <h1>New project</h1>
          <p>Name the idea; you will write or generate the PRD next.</p>
        </div>
      </div>
      <section className="card" style={{ maxWidth: 640 }}>
        <FormAlert state={state} />
        <Form method="post" className="form" noValidate>
          <Field label="Name" name="name" state={state} required autoFocus placeholder="One-click checkout" />
          <div className="field">
            <label htmlFor="field-description">Description</label>
            <textarea
              id="field-description"
              name="description"
              rows={4}
              defaultValue={state?.values?.description}
              placeholder="What problem does it solve, and for whom?"
            />
          </div>
          <div className="field">
            <label htmlFor="field-template">Template</label>
            <select id="field-template" name="templateId" defaultValue={state?.values?.templateId ?? selected}>
              <option value="">No template</option>
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {chosen?.initialQuestion ? <span className="hint">First question: “{chosen.initialQuestion}”</span> : null}
            {state?.fieldErrors?.templateId ? <p className="field-error">{state.fieldErrors.templateId}</p> : null}
          </div>
          <div className="field">
            <label htmlFor="field-priority">Priority</label>
            <select id="field-priority" name="priority" defaultValue={state?.values?.priority ?? ""}>
              <option value="">None</option>
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {p[0]!.toUpperCase() + p.slice(1)}
                </option>
              ))}
            </select>
            {state?.fieldErrors?.priority ? <p className="field-error">{state.fieldErrors.priority}</p> : null}
          </div>
          <div className="inline">
            <SubmitButton pendingText="Creating…">Create project</SubmitButton>
            <Link to="/projects" className="btn btn-secondary">
              Cancel
            </Link>
          </div>
        </Form>
      </section>
    </>
  );
}
