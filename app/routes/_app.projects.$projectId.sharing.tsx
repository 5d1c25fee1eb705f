import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { FormAlert } from "~/components/forms";
import { RelativeTime } from "~/components/project-badges";
import { appUrl } from "~/config.server";
import type { Actor } from "~/domain/actor";
import {
  addCollaboratorSchema,
  COLLABORATOR_ROLES,
  createLinkSchema,
  createViewSchema,
  LINK_TYPES,
  shareSchema,
} from "~/domain/collaboration/collaboration.schema";
import { createLink, deleteLink, listLinks } from "~/domain/collaboration/links.server";
import { addCollaborator, listCollaborators, removeCollaborator } from "~/domain/collaboration/people.server";
import { enableShare, getShare, revokeShare } from "~/domain/collaboration/sharing.server";
import { createView, deleteView, listViews } from "~/domain/collaboration/stakeholders.server";
import { listMembers } from "~/domain/orgs/members.server";
import { getProject, listProjects } from "~/domain/projects/projects.server";
import { listProjectsSchema } from "~/domain/projects/projects.schema";
import { formFailure, formValues, orPageError, requireUiActor, type FormValues } from "~/http/ui.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  const canManage = project.permissions.canManage;
  const [share, collaborators, views, links, members, others] = await Promise.all([
    canManage ? getShare(actor, project.id, { appUrl: appUrl(request.url) }) : null,
    listCollaborators(actor, project.id),
    listViews(actor, project.id),
    listLinks(actor, project.id),
    canManage ? listMembers(actor) : [],
    canManage ? listProjects(actor, listProjectsSchema.parse({ sortBy: "name", limit: 200 })) : { projects: [] },
  ]);
  return {
    canManage,
    share,
    collaborators,
    views,
    links,
    members,
    otherProjects: others.projects.filter((p) => p.id !== project.id).map((p) => ({ id: p.id, name: p.name })),
  };
}

/** A date from an <input type=date> as the end of that day in UTC. */
const endOfDay = (date: string | undefined) => (date ? `${date}T23:59:59.000Z` : undefined);

async function run(actor: Actor, projectId: string, values: FormValues, request: Request) {
  switch (values.intent) {
    case "share-enable": {
      const input = shareSchema.parse({
        password: values.removePassword === "on" ? null : values.password || undefined,
        expiresAt: values.noExpiry === "on" ? null : endOfDay(values.expiresOn),
      });
      await enableShare(actor, projectId, input, { appUrl: appUrl(request.url) });
      return "Share link is on. Anyone with the link can read this PRD.";
    }
    case "share-revoke":
      await revokeShare(actor, projectId);
      return "Share link revoked. The old link no longer works.";
    case "collab-add":
      await addCollaborator(actor, projectId, addCollaboratorSchema.parse(values));
      return `Added ${values.email} as ${values.role}.`;
    case "collab-remove":
      await removeCollaborator(actor, projectId, values.collaboratorId ?? "");
      return "Collaborator removed.";
    case "view-create":
      await createView(
        actor,
        projectId,
        createViewSchema.parse({ ...values, sections: values.sections ? values.sections.split(",").map((s) => s.trim()).filter(Boolean) : undefined }),
      );
      return values.requestReview === "true" ? "Review requested. Send the stakeholder the share link." : "Stakeholder view created.";
    case "view-delete":
      await deleteView(actor, projectId, values.viewId ?? "");
      return "Stakeholder view deleted.";
    case "link-create":
      await createLink(actor, projectId, createLinkSchema.parse({ ...values, linkType: values.linkType || undefined }));
      return "Link added.";
    case "link-delete":
      await deleteLink(actor, projectId, values.linkId ?? "");
      return "Link removed.";
    default:
      throw new Response("Unknown action", { status: 400 });
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    return { message: await run(actor, params.projectId!, values, request), intent: values.intent };
  } catch (error) {
    return formFailure(error, values, ["password"], { intent: values.intent });
  }
}

const REVIEW_TONE: Record<string, string> = { pending: "badge-warning", approved: "badge-success", rejected: "badge-danger" };

export default function Sharing() {
  const { canManage, share, collaborators, views, links, members, otherProjects } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = result && "formError" in result ? result : null;
  const notice = (intentPrefix: string) =>
    result?.intent?.startsWith(intentPrefix) ? (
      "message" in result ? (
        <div className="alert alert-success" role="status">
          <p>{result.message}</p>
        </div>
      ) : (
        <FormAlert state={failure} />
      )
    ) : null;

  return (
    <div className="stack">
      {canManage && share ? (
        <section className="card" aria-labelledby="share-heading">
          <h2 id="share-heading">Share link</h2>
          {notice("share")}
          {share.enabled ? (
            <>
              <p>Anyone with this link can read the PRD, its status and activity — nothing else.</p>
              <div className="secret-box">
                <code data-testid="share-url">{share.shareUrl}</code>
                <CopyButton value={share.shareUrl ?? ""} />
              </div>
              <p className="muted" style={{ marginTop: 8 }}>
                {share.hasPassword ? "Protected by a password. " : "No password. "}
                {share.expiresAt ? (
                  <>
                    Expires <RelativeTime iso={share.expiresAt} />.
                  </>
                ) : (
                  "Never expires."
                )}
              </p>
            </>
          ) : (
            <p className="muted">Not shared. Turn on a read-only link for stakeholders without an account.</p>
          )}
          <Form method="post" className="form" style={{ maxWidth: 520 }}>
            <input type="hidden" name="intent" value="share-enable" />
            <div className="form-row">
              <div className="field">
                <label htmlFor="share-password">Password (optional)</label>
                <input id="share-password" name="password" type="password" autoComplete="new-password" minLength={4} />
              </div>
              <div className="field">
                <label htmlFor="share-expires">Expires on (optional)</label>
                <input id="share-expires" name="expiresOn" type="date" />
              </div>
            </div>
            {share.enabled ? (
              <div className="inline">
                {share.hasPassword ? (
                  <label className="checkbox">
                    <input type="checkbox" name="removePassword" /> Remove the password
                  </label>
                ) : null}
                {share.expiresAt ? (
                  <label className="checkbox">
                    <input type="checkbox" name="noExpiry" /> Never expire
                  </label>
                ) : null}
              </div>
            ) : null}
            <div className="inline">
              <button type="submit" className="btn">
                {share.enabled ? "Update link" : "Create share link"}
              </button>
            </div>
          </Form>
          {share.enabled ? (
            <Form method="post" style={{ marginTop: 8 }}>
              <input type="hidden" name="intent" value="share-revoke" />
              <button type="submit" className="btn btn-danger btn-sm">
                Revoke link
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      <div className="split">
        <section className="card" aria-labelledby="people-heading">
          <h2 id="people-heading">Collaborators</h2>
          <p className="muted">People of your organization with a role on this project: editors edit, commenters comment, viewers read.</p>
          {notice("collab")}
          {collaborators.length === 0 ? (
            <p className="muted">No collaborators yet.</p>
          ) : (
            <ul className="feed">
              {collaborators.map((c) => (
                <li key={c.id} style={{ justifyContent: "space-between" }}>
                  <span>
                    <strong>{c.user.name}</strong> <span className="muted">{c.user.email}</span> <span className="badge">{c.role}</span>
                  </span>
                  {canManage ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="collab-remove" />
                      <input type="hidden" name="collaboratorId" value={c.id} />
                      <button type="submit" className="btn btn-link" aria-label={`Remove ${c.user.name}`}>
                        Remove
                      </button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {canManage ? (
            <Form method="post" className="form" style={{ marginTop: 12 }}>
              <input type="hidden" name="intent" value="collab-add" />
              <div className="form-row">
                <div className="field" style={{ flex: 1 }}>
                  <label htmlFor="collab-email">E-mail of a member</label>
                  <input id="collab-email" name="email" type="email" list="member-emails" required />
                  <datalist id="member-emails">
                    {members.map((m) => (
                      <option key={m.id} value={m.email}>
                        {m.name}
                      </option>
                    ))}
                  </datalist>
                </div>
                <div className="field">
                  <label htmlFor="collab-role">Role</label>
                  <select id="collab-role" name="role" defaultValue="editor">
                    {COLLABORATOR_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              <div>
                <button type="submit" className="btn btn-secondary btn-sm">
                  Add collaborator
                </button>
              </div>
            </Form>
          ) : null}
        </section>

        <section className="card" aria-labelledby="links-heading">
          <h2 id="links-heading">Links</h2>
          {notice("link")}
          {links.length === 0 ? (
            <p className="muted">Designs, tickets, docs or related projects.</p>
          ) : (
            <ul className="feed">
              {links.map((l) => (
                <li key={l.id} style={{ justifyContent: "space-between" }}>
                  <span>
                    <span className="badge">{l.linkType.replace("_", " ")}</span>{" "}
                    {l.url ? (
                      <a href={l.url} rel="noopener noreferrer" target="_blank">
                        {l.title}
                      </a>
                    ) : l.target ? (
                      <a href={`/projects/${l.target.id}`}>{l.target.name}</a>
                    ) : (
                      l.title
                    )}
                  </span>
                  {canManage ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="link-delete" />
                      <input type="hidden" name="linkId" value={l.id} />
                      <button type="submit" className="btn btn-link" aria-label={`Remove link ${l.title}`}>
                        Remove
                      </button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {canManage ? (
            <Form method="post" className="form" style={{ marginTop: 12 }}>
              <input type="hidden" name="intent" value="link-create" />
              <div className="field">
                <label htmlFor="link-url">URL</label>
                <input id="link-url" name="url" type="url" placeholder="https://…" />
              </div>
              {otherProjects.length ? (
                <div className="field">
                  <label htmlFor="link-target">…or a related project</label>
                  <select id="link-target" name="targetProjectId" defaultValue="">
                    <option value="">—</option>
                    {otherProjects.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              <div className="form-row">
                <div className="field" style={{ flex: 1 }}>
                  <label htmlFor="link-title">Title (optional)</label>
                  <input id="link-title" name="title" />
                </div>
                <div className="field">
                  <label htmlFor="link-type">Type</label>
                  <select id="link-type" name="linkType" defaultValue="">
                    <option value="">Automatic</option>
                    {LINK_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {t.replace("_", " ")}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              <div>
                <button type="submit" className="btn btn-secondary btn-sm">
                  Add link
                </button>
              </div>
            </Form>
          ) : null}
        </section>
      </div>

      <section className="card" aria-labelledby="views-heading">
        <h2 id="views-heading">Stakeholder reviews</h2>
        <p className="muted">Ask a stakeholder to approve or reject the PRD. They answer on the share link, without an account.</p>
        {notice("view")}
        {views.length === 0 ? (
          <p className="muted">No stakeholder views yet.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Stakeholder</th>
                <th scope="col">Review</th>
                <th scope="col">Feedback</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {views.map((v) => (
                <tr key={v.id}>
                  <td>{v.name}</td>
                  <td>{[v.stakeholderName, v.stakeholderEmail].filter(Boolean).join(" · ") || "—"}</td>
                  <td>
                    {v.reviewStatus ? <span className={`badge ${REVIEW_TONE[v.reviewStatus]}`}>{v.reviewStatus}</span> : <span className="muted">view only</span>}
                    {v.resolvedByName ? <div className="muted">by {v.resolvedByName}</div> : null}
                  </td>
                  <td>{v.feedback ?? "—"}</td>
                  <td>
                    {canManage ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="view-delete" />
                        <input type="hidden" name="viewId" value={v.id} />
                        <button type="submit" className="btn btn-link" aria-label={`Delete ${v.name}`}>
                          Delete
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {canManage ? (
          <Form method="post" className="form" style={{ marginTop: 12, maxWidth: 620 }}>
            <input type="hidden" name="intent" value="view-create" />
            <input type="hidden" name="requestReview" value="true" />
            <div className="form-row">
              <div className="field" style={{ flex: 1 }}>
                <label htmlFor="view-name">Review name</label>
                <input id="view-name" name="name" required placeholder="Legal sign-off" />
              </div>
              <div className="field" style={{ flex: 1 }}>
                <label htmlFor="view-stakeholder">Stakeholder</label>
                <input id="view-stakeholder" name="stakeholderName" placeholder="Dana (Legal)" />
              </div>
            </div>
            <div>
              <button type="submit" className="btn btn-secondary btn-sm">
                Request review
              </button>
            </div>
          </Form>
        ) : null}
      </section>
      {!canManage ? <p className="muted">Only people who can edit this project manage sharing, people and links.</p> : null}
    </div>
  );
}
