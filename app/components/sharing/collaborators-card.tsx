import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { COLLABORATOR_ROLES } from "~/domain/collaboration/collaboration.schema";
import { PostButton } from "../post-button";

export function CollaboratorsCard({
  collaborators,
  members,
  canManage,
  notice,
}: {
  collaborators: { id: string; role: string; user: { name: string; email: string } }[];
  members: { id: string; name: string; email: string }[];
  canManage: boolean;
  notice: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby="people-heading">
      <h2 id="people-heading">Collaborators</h2>
      <p className="muted">People of your organization with a role on this project: editors edit, commenters comment, viewers read.</p>
      {notice}
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
                <PostButton intent="collab-remove" fields={{ collaboratorId: c.id }} label={`Remove ${c.user.name}`}>
                  Remove
                </PostButton>
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
  );
}
