import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { LogoMark, PRODUCT_NAME } from "~/components/logo";
import { PLAN_NAMES } from "~/domain/billing/plans";
import { unreadCount } from "~/domain/notifications/notifications.server";
import { requireUiActor } from "~/http/ui.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return {
    user: actor.user,
    org: { name: actor.org.name, plan: PLAN_NAMES[actor.org.plan] },
    role: actor.role,
    isAdmin: actor.role === "owner" || actor.role === "admin",
    isSuperadmin: actor.isSuperadmin,
    unread: await unreadCount(actor.user.id),
  };
}

export default function AppShell() {
  const { user, org, role, isSuperadmin, unread } = useLoaderData<typeof loader>();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">
          <LogoMark size={26} /> {PRODUCT_NAME}
        </div>
        <Form method="get" action="/search" role="search" className="sidebar-search">
          <label htmlFor="global-search" className="sr-only">
            Search
          </label>
          <input id="global-search" name="q" type="search" placeholder="Search PRDs…" />
        </Form>
        <nav aria-label="Main">
          <ul>
            <li>
              <NavLink to="/home">Home</NavLink>
            </li>
            <li>
              <NavLink to="/projects">Projects</NavLink>
            </li>
            <li>
              <NavLink to="/templates">Templates</NavLink>
            </li>
          </ul>
          <p className="nav-heading">Workspace</p>
          <ul>
            <li>
              <NavLink
                to="/notifications"
                aria-label={unread ? `Notifications, ${unread} unread` : "Notifications, none unread"}
                data-testid="notification-bell"
              >
                Notifications{unread ? ` (${unread > 99 ? "99+" : unread})` : ""}
              </NavLink>
            </li>
            <li>
              <NavLink to="/settings">Settings</NavLink>
            </li>
            {isSuperadmin ? (
              <li>
                <NavLink to="/admin/submissions">Template reviews</NavLink>
              </li>
            ) : null}
          </ul>
        </nav>
        <div className="account">
          <div className="name">{user.name}</div>
          <div className="org">
            {org.name} · {org.plan} · {role}
          </div>
          <Form method="post" action="/sign-out">
            <button type="submit">Sign out</button>
          </Form>
        </div>
      </aside>
      <main className="main" id="main">
        <Outlet />
      </main>
    </div>
  );
}
