import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { LINK_TYPES } from "~/domain/collaboration/collaboration.schema";
import { PostButton } from "../post-button";

export function LinksCard({
  links,
  otherProjects,
  canManage,
  notice,
}: {
  links: { id: string; title: string; url: string | null; linkType: string; target: { id: string; name: string } | null }[];
  otherProjects: { id: string; name: string }[];
  canManage: boolean;
  notice: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby="links-heading">
      <h2 id="links-heading">Links</h2>
      {notice}
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
                <PostButton intent="link-delete" fields={{ linkId: l.id }} label={`Remove link ${l.title}`}>
                  Remove
                </PostButton>
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
  );
}
