import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { RelativeTime } from "~/components/project-badges";
import { deleteNotification, listNotifications, markAllRead, setNotificationRead } from "~/domain/notifications/notifications.server";
import { listNotificationsQuery } from "~/domain/notifications/notifications.schema";
import { type IntentArgs, intentAction } from "~/http/ui/intent-action.server";
import { type FormValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Notifications · PRD Studio" }];

const PAGE = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const url = new URL(request.url);
  const unreadOnly = url.searchParams.get("unread") === "true";
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  const query = listNotificationsQuery.parse({ limit: PAGE, offset: (page - 1) * PAGE, unread: unreadOnly ? "true" : undefined });
  const result = await listNotifications(actor, query);
  return { ...result, unreadOnly, page, pages: Math.max(1, Math.ceil(result.total / PAGE)) };
}

/** Back to the list, still filtered to unread notifications when it was. */
const back = (values: FormValues) => redirect(`/notifications${values.unread === "true" ? "?unread=true" : ""}`);

const markRead = async ({ actor, values, intent }: IntentArgs) => {
  await setNotificationRead(actor, values.notificationId ?? "", intent === "read");
  return back(values);
};

export const action = intentAction({
  "mark-all-read": async ({ actor, values }) => {
    await markAllRead(actor);
    return back(values);
  },
  delete: async ({ actor, values }) => {
    await deleteNotification(actor, values.notificationId ?? "");
    return back(values);
  },
  read: markRead,
  unread: markRead,
  open: async ({ actor, values }) => {
    const n = await setNotificationRead(actor, values.notificationId ?? "", true);
    return redirect(n.link && n.link.startsWith("/") && !n.link.startsWith("//") ? n.link : "/notifications");
  },
});

export default function Notifications() {
  const data = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const keep = data.unreadOnly ? <input type="hidden" name="unread" value="true" /> : null;
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Notifications</h1>
          <p>
            {data.unreadCount ? `${data.unreadCount} unread.` : "You are all caught up."}{" "}
            <Link to="/settings/notifications">Choose what you are notified about</Link>
          </p>
        </div>
        {data.unreadCount ? (
          <Form method="post">
            {keep}
            <button type="submit" name="intent" value="mark-all-read" className="btn btn-secondary">
              Mark all as read
            </button>
          </Form>
        ) : null}
      </div>
      <FormAlert state={state && "formError" in state ? state : null} />
      <nav className="subtabs" aria-label="Filter notifications">
        <Link to="/notifications" aria-current={!data.unreadOnly ? "page" : undefined}>
          All
        </Link>{" "}
        <Link to="/notifications?unread=true" aria-current={data.unreadOnly ? "page" : undefined}>
          Unread ({data.unreadCount})
        </Link>
      </nav>
      <section className="card" aria-label="Notification list">
        {data.notifications.length === 0 ? (
          <div className="empty-state">
            <h2>{data.unreadOnly ? "No unread notifications" : "No notifications yet"}</h2>
            <p>You will hear here when someone mentions you, comments on or assigns you a project, changes its status, or when your exports finish.</p>
          </div>
        ) : (
          <ul className="feed">
            {data.notifications.map((n) => (
              <li key={n.id} style={{ justifyContent: "space-between", alignItems: "flex-start" }}>
                <div>
                  {n.read ? null : <span className="badge badge-brand">New</span>} <strong>{n.title}</strong>
                  {n.body ? <div>{n.body}</div> : null}
                  <div className="muted" style={{ fontSize: "0.85rem" }}>
                    {n.type.replace(/_/g, " ")} · <RelativeTime iso={n.createdAt} />
                  </div>
                </div>
                <Form method="post" className="inline-form" aria-label={`Actions for: ${n.title}`}>
                  <input type="hidden" name="notificationId" value={n.id} />
                  {keep}
                  {n.link ? (
                    <button type="submit" name="intent" value="open" className="btn btn-sm btn-secondary">
                      Open
                    </button>
                  ) : null}{" "}
                  <button type="submit" name="intent" value={n.read ? "unread" : "read"} className="btn btn-sm btn-secondary">
                    {n.read ? "Mark as unread" : "Mark as read"}
                  </button>{" "}
                  <button type="submit" name="intent" value="delete" className="btn btn-sm btn-link">
                    Delete
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        {data.pages > 1 ? (
          <div className="pagination">
            <span className="muted">
              Page {data.page} of {data.pages}
            </span>
            <span>
              {data.page > 1 ? <Link to={`?${data.unreadOnly ? "unread=true&" : ""}page=${data.page - 1}`}>Previous</Link> : null}{" "}
              {data.page < data.pages ? <Link to={`?${data.unreadOnly ? "unread=true&" : ""}page=${data.page + 1}`}>Next</Link> : null}
            </span>
          </div>
        ) : null}
      </section>
    </div>
  );
}
