import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RelativeTime, statusLabel } from "~/components/project-badges";
import { projectActivity, projectHistory } from "~/domain/projects/projects.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";

const PAGE = 30;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const offset = Math.max(0, Number(new URL(request.url).searchParams.get("offset")) || 0);
  const [feed, history] = await Promise.all([
    orPageError(projectActivity(actor, params.projectId!, { limit: PAGE, offset })),
    orPageError(projectHistory(actor, params.projectId!)),
  ]);
  return { ...feed, history, offset };
}

export default function Activity() {
  const { activities, total, history, offset } = useLoaderData<typeof loader>();
  return (
    <div className="split-3">
      <section className="card" aria-labelledby="activity-heading">
        <h2 id="activity-heading">Activity</h2>
        {activities.length === 0 ? (
          <p className="muted">Nothing has happened yet.</p>
        ) : (
          <ol className="feed">
            {activities.map((a) => (
              <li key={a.id}>
                <div>
                  <div>{a.summary}</div>
                  <div className="muted" style={{ fontSize: "0.85rem" }}>
                    <RelativeTime iso={a.createdAt} /> · {new Date(a.createdAt).toLocaleTimeString("en-GB", { timeStyle: "short" })}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        )}
        {total > PAGE ? (
          <nav className="pagination" aria-label="Activity pages">
            {offset > 0 ? <Link to={`?offset=${Math.max(0, offset - PAGE)}`}>← Newer</Link> : <span />}
            {offset + PAGE < total ? <Link to={`?offset=${offset + PAGE}`}>Older →</Link> : <span />}
          </nav>
        ) : null}
      </section>
      <section className="card" aria-labelledby="history-heading">
        <h2 id="history-heading">Status history</h2>
        <ol className="feed">
          {history.map((h) => (
            <li key={h.id}>
              <div>
                <div>
                  {h.from ? `${statusLabel(h.from)} → ` : "Created as "}
                  <strong>{statusLabel(h.to)}</strong>
                </div>
                <div className="muted" style={{ fontSize: "0.85rem" }}>
                  {h.changedBy?.name ?? "—"} · <RelativeTime iso={h.createdAt} />
                </div>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
