import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { Field, FormAlert, SubmitButton, Notice } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { teamInput } from "~/domain/orgs/orgs.schema";
import { createTeam, deleteTeam, listTeams, updateTeam } from "~/domain/teams/teams.server";
import { readFlash, setFlash } from "~/http/ui/flash.server";
import { type IntentArgs, intentAction } from "~/http/ui/intent-action.server";
import { type FormValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Teams · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const showArchived = new URL(request.url).searchParams.get("archived") === "1";
  const [teams, { flash, headers }] = await Promise.all([listTeams(actor, showArchived), readFlash(request)]);
  return withHeaders({ allowed: true as const, teams, showArchived, flash }, { headers });
}

/** Back to the list (still showing archived teams when it was) with a notice. */
const back = async (values: FormValues, message: string) =>
  redirect(`/admin/teams${values.archived === "1" ? "?archived=1" : ""}`, {
    headers: { "Set-Cookie": await setFlash({ kind: "notice", message }) },
  });

const archive = async ({ actor, values, intent }: IntentArgs) => {
  const team = await updateTeam(actor, values.teamId ?? "", { isArchived: intent === "archive" });
  return back(values, `Team “${team.name}” ${intent === "archive" ? "archived" : "restored"}.`);
};

export const action = intentAction({
  create: async ({ actor, values }) => {
    const team = await createTeam(actor, teamInput.parse({ name: values.name, description: values.description || undefined, color: values.color || null }));
    return back(values, `Team “${team.name}” created.`);
  },
  edit: async ({ actor, values }) => {
    const input = teamInput.parse({ name: values.name, description: values.description ?? "", color: values.color || null });
    const team = await updateTeam(actor, values.teamId ?? "", input);
    return back(values, `Team “${team.name}” updated.`);
  },
  archive,
  restore: archive,
  delete: async ({ actor, values }) => {
    await deleteTeam(actor, values.teamId ?? "");
    return back(values, `Team “${values.name ?? ""}” deleted.`);
  },
});

export default function Teams() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) return null;
  const state = result && "formError" in result ? result : null;
  const createState = state?.intent === "create" ? state : null;
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const archivedFlag = data.showArchived ? "1" : "";
  return (
    <div className="stack">
      <Notice message={notice} />
      {state && !createState ? <FormAlert state={state} /> : null}
      <section className="card" aria-labelledby="teams-heading">
        <div className="form-row">
          <h2 id="teams-heading">Teams</h2>
          <Link to={data.showArchived ? "/admin/teams" : "/admin/teams?archived=1"}>{data.showArchived ? "Hide archived teams" : "Show archived teams"}</Link>
        </div>
        {data.teams.length === 0 ? (
          <div className="empty-state">
            <h3>No teams yet</h3>
            <p>Group people by squad or function, for example “Payments” or “Design”. Create the first one below.</p>
          </div>
        ) : (
          <TableScroll label="Teams">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.teams.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <span
                        aria-hidden="true"
                        style={{ display: "inline-block", width: 10, height: 10, borderRadius: 999, background: t.color ?? "transparent", marginRight: 6 }}
                      />
                      {t.name}
                    </td>
                    <td>{t.description || <span className="muted">—</span>}</td>
                    <td>{t.isArchived ? <span className="badge">Archived</span> : <span className="badge badge-success">Active</span>}</td>
                    <td className="inline">
                      <details>
                        <summary aria-label={`Edit ${t.name}`}>Edit</summary>
                        <Form method="post" className="form">
                          <input type="hidden" name="intent" value="edit" />
                          <input type="hidden" name="teamId" value={t.id} />
                          <input type="hidden" name="archived" value={archivedFlag} />
                          <div className="field">
                            <label htmlFor={`name-${t.id}`}>Name</label>
                            <input id={`name-${t.id}`} name="name" defaultValue={t.name} maxLength={100} required />
                          </div>
                          <div className="field">
                            <label htmlFor={`description-${t.id}`}>Description</label>
                            <input id={`description-${t.id}`} name="description" defaultValue={t.description} maxLength={500} />
                          </div>
                          <div className="field">
                            <label htmlFor={`color-${t.id}`}>Colour (hex)</label>
                            <input id={`color-${t.id}`} name="color" defaultValue={t.color ?? ""} />
                          </div>
                          <button type="submit" className="btn btn-secondary btn-sm">
                            Save
                          </button>
                        </Form>
                      </details>
                      <Form method="post" className="inline-form">
                        <input type="hidden" name="intent" value={t.isArchived ? "restore" : "archive"} />
                        <input type="hidden" name="teamId" value={t.id} />
                        <input type="hidden" name="archived" value={archivedFlag} />
                        <button type="submit" className="btn btn-secondary btn-sm" aria-label={`${t.isArchived ? "Restore" : "Archive"} ${t.name}`}>
                          {t.isArchived ? "Restore" : "Archive"}
                        </button>
                      </Form>
                      <PostButton
                        intent="delete"
                        fields={{ teamId: t.id, name: t.name, archived: archivedFlag }}
                        label={`Delete ${t.name}`}
                        className="btn btn-danger btn-sm"
                      >
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
      <section className="card" aria-labelledby="new-team-heading" style={{ maxWidth: 560 }}>
        <h2 id="new-team-heading">New team</h2>
        <FormAlert state={createState} />
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" name="name" state={createState} hint="1 to 100 characters." required />
          <Field label="Description (optional)" name="description" state={createState} hint="Up to 500 characters." />
          <Field label="Colour (optional)" name="color" state={createState} placeholder="#4f46e5" hint="A hex code such as #4f46e5." />
          <div>
            <SubmitButton pendingText="Creating…" className="btn btn-primary">
              Create team
            </SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
