import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { TemplateForm } from "~/components/template-form";
import { isAdmin, canWrite } from "~/domain/actor";
import { createTemplateSchema } from "~/domain/templates/templates.schema";
import { createTemplate } from "~/domain/templates/templates.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "New template · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!canWrite(actor)) throw new Response("Viewers cannot create templates", { status: 403 });
  const types = [
    ...(isAdmin(actor) ? [{ value: "organization", label: `Everyone in ${actor.org.name}` }] : []),
    { value: "personal", label: "Only me" },
    ...(actor.isSuperadmin ? [{ value: "system", label: "Built-in (all organizations)" }] : []),
  ];
  return { types };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const template = await createTemplate(actor, createTemplateSchema.parse(values));
    return redirect(`/templates/${template.id}`);
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function NewTemplate() {
  const { types } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <>
      <div className="page-header">
        <div>
          <h1>New template</h1>
          <p>Capture how your team writes PRDs: the sections, the first question and the instructions for the AI.</p>
        </div>
      </div>
      <section className="card" style={{ maxWidth: 760 }}>
        <FormAlert state={state} />
        <TemplateForm state={state} types={types} submitLabel="Create template" />
      </section>
    </>
  );
}
