import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { CopyButton } from "~/components/copy-button";
import { Field, FieldNotes, FormAlert, SubmitButton } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import {
  createIncomingWebhook,
  deleteIncomingWebhook,
  listIncomingEvents,
  listIncomingWebhooks,
  updateIncomingWebhook,
} from "~/domain/incoming/endpoints.server";
import { createIncomingSchema, INCOMING_ACTION_LABELS, INCOMING_ACTIONS } from "~/domain/incoming/incoming.schema";
import { listProjects } from "~/domain/projects/projects.server";
import { listProjectsSchema } from "~/domain/projects/projects.schema";
import { appUrl } from "~/config.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Incoming webhooks · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [hooks, { projects }] = await Promise.all([
    listIncomingWebhooks(actor),
    listProjects(actor, listProjectsSchema.parse({ limit: 200, sortBy: "name", sortOrder: "asc" })),
  ]);
  const eventsFor = new URL(request.url).searchParams.get("events");
  const selected = hooks.find((h) => h.id === eventsFor) ?? null;
  const events = selected ? await listIncomingEvents(actor, selected.id) : [];
  return { allowed: true as const, hooks, projects: projects.map((p) => ({ id: p.id, name: p.name })), selected, events };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const base = appUrl();
  try {
    if (values.intent === "toggle") {
      const hook = await updateIncomingWebhook(actor, values.id ?? "", { isActive: values.isActive === "true" }, base);
      return { created: null, notice: `${hook.name} is now ${hook.isActive ? "active" : "disabled"}.` };
    }
    if (values.intent === "rotate") {
      const hook = await updateIncomingWebhook(actor, values.id ?? "", { rotateToken: true }, base);
      return { created: { name: hook.name, url: "url" in hook ? hook.url! : "" }, notice: "The old URL no longer works." };
    }
    if (values.intent === "delete") {
      await deleteIncomingWebhook(actor, values.id ?? "");
      return { created: null, notice: `${values.name ?? "The endpoint"} was deleted.` };
    }
    const input = createIncomingSchema.parse({ ...values, config: { projectId: values.projectId } });
    const hook = await createIncomingWebhook(actor, input, base);
    return { created: { name: hook.name, url: hook.url }, notice: null };
  } catch (error) {
    // Field errors of the nested config are shown next to the project select.
    const failure = formFailure(error, values, [], { intent: values.intent ?? "create" });
    const fe = failure.data.fieldErrors;
    if (fe?.["config.projectId"]) fe.projectId = fe["config.projectId"];
    return failure;
  }
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "Never");
const STATUS_BADGE = { processed: "badge badge-success", failed: "badge badge-danger", ignored: "badge" } as const;

export default function IncomingWebhooks() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>Incoming webhooks are managed by admins</h2>
        <p>Ask an owner or admin of your organization to set one up.</p>
      </div>
    );
  }
  const ok = result && "notice" in result ? result : null;
  const state = result && !("notice" in result) ? result : null;
  return (
    <div className="stack">
      {ok?.created ? (
        <section className="card" aria-labelledby="new-hook-heading">
          <h2 id="new-hook-heading">URL for “{ok.created.name}”</h2>
          <div className="alert alert-warning">
            <p>Copy it now: the URL contains a secret and is only shown once. Anyone with it can send events.</p>
          </div>
          <div className="secret-box">
            <code data-testid="incoming-url">{ok.created.url}</code>
            <CopyButton value={ok.created.url} />
          </div>
          <p className="muted" style={{ marginTop: 12 }}>
            Try it:{" "}
            <code>
              curl -H "Content-Type: application/json" -d '{`{"title":"Hello","text":"From curl"}`}' {ok.created.url}
            </code>
          </p>
        </section>
      ) : null}
      {ok?.notice ? (
        <div className="alert alert-success" role="status">
          <p>{ok.notice}</p>
        </div>
      ) : null}
      {state && state.intent !== "create" ? <FormAlert state={state} /> : null}
      <section className="card" aria-labelledby="hooks-heading">
        <h2 id="hooks-heading">Incoming webhooks</h2>
        <p>
          Other tools POST JSON or form data to a secret URL; each event creates a project, comments on a project or notifies everyone, acting as the admin who
          set it up.
        </p>
        {data.hooks.length === 0 ? (
          <div className="empty-state">
            <h3>No incoming webhooks yet</h3>
            <p>Create one below to let a CRM, CI pipeline or chat tool send events into PRD Studio.</p>
          </div>
        ) : (
          <TableScroll label="Incoming webhooks">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Action</th>
                  <th scope="col">Token</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last event</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.hooks.map((h) => (
                  <tr key={h.id}>
                    <td>{h.name}</td>
                    <td>
                      {INCOMING_ACTION_LABELS[h.action]}
                      {h.config.projectId ? <> · {data.projects.find((p) => p.id === h.config.projectId)?.name ?? "a project"}</> : null}
                    </td>
                    <td>
                      <code>{h.tokenPrefix}…</code>
                    </td>
                    <td>{h.isActive ? <span className="badge badge-success">Active</span> : <span className="badge">Disabled</span>}</td>
                    <td>{when(h.lastEventAt)}</td>
                    <td>
                      <Link to={`?events=${h.id}`} className="btn btn-secondary btn-sm" aria-label={`Recent events of ${h.name}`}>
                        Events
                      </Link>{" "}
                      <PostButton
                        intent="toggle"
                        fields={{ id: h.id, isActive: h.isActive ? "false" : "true" }}
                        label={`${h.isActive ? "Disable" : "Enable"} ${h.name}`}
                        className="btn btn-secondary btn-sm"
                      >
                        {h.isActive ? "Disable" : "Enable"}
                      </PostButton>{" "}
                      <PostButton intent="rotate" fields={{ id: h.id }} label={`New URL for ${h.name}`} className="btn btn-secondary btn-sm">
                        New URL
                      </PostButton>{" "}
                      <PostButton intent="delete" fields={{ id: h.id, name: h.name }} label={`Delete ${h.name}`} className="btn btn-danger btn-sm">
                        Delete
                      </PostButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      {data.selected ? <EventLog name={data.selected.name} events={data.events} /> : null}
      <CreateForm projects={data.projects} state={state && state.intent === "create" ? state : null} />
    </div>
  );
}

function EventLog({
  name,
  events,
}: {
  name: string;
  events: { id: string; status: "processed" | "failed" | "ignored"; contentType: string; error: string | null; payload: string; createdAt: string }[];
}) {
  return (
    <section className="card" aria-labelledby="events-heading">
      <h2 id="events-heading">Recent events of {name}</h2>
      {events.length === 0 ? (
        <div className="empty-state">
          <h3>No events received yet</h3>
          <p>Events appear here as soon as something is sent to the URL (the last 50 are kept in view).</p>
        </div>
      ) : (
        <TableScroll label={`Recent events of ${name}`}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Status</th>
                <th scope="col">Type</th>
                <th scope="col">Payload / error</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.createdAt)}</td>
                  <td>
                    <span className={STATUS_BADGE[e.status]}>{e.status}</span>
                  </td>
                  <td>
                    <code>{e.contentType || "—"}</code>
                  </td>
                  <td>
                    {e.error ? <p className="field-error">{e.error}</p> : null}
                    <code>{e.payload.length > 200 ? `${e.payload.slice(0, 200)}…` : e.payload || "(empty)"}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

function CreateForm({ projects, state }: { projects: { id: string; name: string }[]; state: Parameters<typeof FormAlert>[0]["state"] }) {
  const actionError = state?.fieldErrors?.action;
  const projectError = state?.fieldErrors?.projectId;
  return (
    <section className="card" aria-labelledby="create-hook-heading" style={{ maxWidth: 560 }}>
      <h2 id="create-hook-heading">Create an incoming webhook</h2>
      <FormAlert state={state} />
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="intent" value="create" />
        <Field label="Name" name="name" state={state} placeholder="CRM deals" required />
        <div className="field">
          <label htmlFor="field-action">Action</label>
          <select
            id="field-action"
            name="action"
            defaultValue={state?.values?.action ?? "create_project"}
            aria-invalid={actionError ? true : undefined}
            aria-describedby="field-action-hint"
          >
            {INCOMING_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {INCOMING_ACTION_LABELS[a]}
              </option>
            ))}
          </select>
          <FieldNotes
            id="field-action"
            hint="Create a project uses name/title and description/text; a comment uses text/body/message; a notification uses title and text."
            error={actionError}
          />
        </div>
        <div className="field">
          <label htmlFor="field-projectId">Project (for “Comment on a project”)</label>
          <select
            id="field-projectId"
            name="projectId"
            defaultValue={state?.values?.projectId ?? ""}
            aria-invalid={projectError ? true : undefined}
            aria-describedby={projectError ? "field-projectId-error" : undefined}
          >
            <option value="">— None —</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          <FieldNotes id="field-projectId" error={projectError} />
        </div>
        <div>
          <SubmitButton pendingText="Creating…">Create webhook</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
