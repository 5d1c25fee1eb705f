import { canWrite } from "~/domain/actor";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { createProjectSchema, PRIORITIES } from "~/domain/projects/projects.schema";
import { createProject } from "~/domain/projects/projects.server";
import { listTemplates } from "~/domain/templates/templates.server";
import { assertCanStartFromDocument, createProjectFromDocument } from "~/domain/uploads/from-document.server";
import { MAX_DOCUMENT_BYTES } from "~/domain/uploads/uploads.schema";
import { assertSameOrigin } from "~/http/csrf.server";
import { parseMultipart } from "~/http/api/multipart.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "New project · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!canWrite(actor)) throw new Response("Viewers cannot create projects", { status: 403 });
  const templates = await listTemplates(actor, {});
  return {
    templates: templates.map((t) => ({ id: t.id, name: t.name, initialQuestion: t.initialQuestion })),
    selected: new URL(request.url).searchParams.get("templateId") ?? "",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    return startFromDocument(request, actor);
  }
  const values = await formValues(request);
  try {
    const project = await createProject(actor, createProjectSchema.parse(values));
    return redirect(`/projects/${project.id}`);
  } catch (error) {
    return formFailure(error, values, [], { intent: "create" });
  }
}

/** intent=from-document: the only multipart form on this page. */
async function startFromDocument(request: Request, actor: Awaited<ReturnType<typeof requireUiActor>>) {
  const intent = { intent: "from-document" };
  try {
    assertSameOrigin(request);
    // Viewers and organizations at their project or upload limit are refused before the file is read.
    await assertCanStartFromDocument(actor);
    const { files } = await parseMultipart(request, { maxFileBytes: MAX_DOCUMENT_BYTES, requiredFile: "file" });
    const part = files.file!;
    const { project } = await createProjectFromDocument(actor, part);
    return redirect(`/projects/${project.id}`);
  } catch (error) {
    return formFailure(error, {}, [], intent);
  }
}

const MAX_MB = MAX_DOCUMENT_BYTES / (1024 * 1024);

export default function NewProject() {
  const state = useActionData<typeof action>();
  const { templates, selected } = useLoaderData<typeof loader>();
  const chosen = templates.find((t) => t.id === (state?.values?.templateId ?? selected));
  const docState = state?.intent === "from-document" ? state : null;
  const createState = docState ? null : state;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>New project</h1>
          <p>Name the idea; you will write or generate the PRD next.</p>
        </div>
      </div>
      <section className="card" style={{ maxWidth: 640 }}>
        <FormAlert state={createState} />
        <Form method="post" className="form" noValidate>
          <Field label="Name" name="name" state={createState} required autoFocus placeholder="One-click checkout" />
          <div className="field">
            <label htmlFor="field-description">Description</label>
            <textarea
              id="field-description"
              name="description"
              rows={4}
              defaultValue={createState?.values?.description}
              placeholder="What problem does it solve, and for whom?"
            />
          </div>
          <div className="field">
            <label htmlFor="field-template">Template</label>
            <select id="field-template" name="templateId" defaultValue={createState?.values?.templateId ?? selected}>
              <option value="">No template</option>
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {chosen?.initialQuestion ? <span className="hint">First question: “{chosen.initialQuestion}”</span> : null}
            {createState?.fieldErrors?.templateId ? <p className="field-error">{createState.fieldErrors.templateId}</p> : null}
          </div>
          <div className="field">
            <label htmlFor="field-priority">Priority</label>
            <select id="field-priority" name="priority" defaultValue={createState?.values?.priority ?? ""}>
              <option value="">None</option>
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {p[0]!.toUpperCase() + p.slice(1)}
                </option>
              ))}
            </select>
            {createState?.fieldErrors?.priority ? <p className="field-error">{createState.fieldErrors.priority}</p> : null}
          </div>
          <div className="inline">
            <SubmitButton pendingText="Creating…">Create project</SubmitButton>
            <Link to="/projects" className="btn btn-secondary">
              Cancel
            </Link>
          </div>
        </Form>
      </section>
      <section className="card" style={{ maxWidth: 640, marginTop: 16 }} aria-labelledby="from-document-heading">
        <h2 id="from-document-heading">Start a project from a document</h2>
        <p className="muted">
          Upload a brief, spec or meeting notes (PDF, Word .docx, plain text or Markdown, up to {MAX_MB} MB). The project is named after the document&rsquo;s
          title, its summary becomes the description, the text becomes the first PRD draft and the original is kept in the project&rsquo;s files.
        </p>
        <FormAlert state={docState} />
        <Form method="post" encType="multipart/form-data" className="form">
          <input type="hidden" name="intent" value="from-document" />
          <div className="field">
            <label htmlFor="field-document">Document</label>
            <input
              id="field-document"
              name="file"
              type="file"
              required
              accept=".pdf,.docx,.txt,.md,.markdown,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/plain,text/markdown"
              aria-describedby="field-document-hint"
            />
            <span className="hint" id="field-document-hint">
              The type is read from the file itself; each document counts towards your plan&rsquo;s monthly document uploads.
            </span>
            {docState?.fieldErrors?.file ? <p className="field-error">{docState.fieldErrors.file}</p> : null}
          </div>
          <div className="inline">
            <SubmitButton pendingText="Reading the document…" name="intent" value="from-document">
              Create from document
            </SubmitButton>
          </div>
        </Form>
      </section>
    </>
  );
}
