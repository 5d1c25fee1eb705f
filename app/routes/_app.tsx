import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { AppMenu } from "~/components/app-menu";
import { LogoMark, PRODUCT_NAME } from "~/components/logo";
import { SearchShortcut } from "~/components/search-shortcut";
import { ThemeToggle } from "~/components/theme-toggle";
import { PLAN_NAMES } from "~/domain/billing/plans";
import { brandCssVars } from "~/domain/branding/brand-style";
import { brandingForOrg } from "~/domain/branding/branding.server";
import { unreadCount } from "~/domain/notifications/notifications.server";
import { listMemberships } from "~/domain/orgs/orgs.server";
import { requireUiActor } from "~/http/ui/ui.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return {
    user: actor.user,
    org: { name: actor.org.name, plan: PLAN_NAMES[actor.org.plan] },
    role: actor.role,
    isAdmin: actor.role === "owner" || actor.role === "admin",
    isSuperadmin: actor.isSuperadmin,
    unread: await unreadCount(actor.user.id),
    branding: await brandingForOrg(actor.org.id),
    organizations: await listMemberships(actor.user.id).then((rows) => rows.map((r) => ({ id: r.orgId, name: r.orgName, current: r.orgId === actor.org.id }))),
  };
}

export default function AppShell() {
  const { user, org, role, isAdmin, isSuperadmin, unread, organizations, branding } = useLoaderData<typeof loader>();
  return (
    <div className="shell" style={brandCssVars(branding)}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">
          {branding.logoUrl ? <img src={branding.logoUrl} alt="" width={26} height={26} style={{ objectFit: "contain" }} /> : <LogoMark size={26} />}{" "}
          {branding.companyName || PRODUCT_NAME}
        </div>
        <AppMenu>
          <Form method="get" action="/search" role="search" className="sidebar-search">
            <label htmlFor="global-search" className="sr-only">
              Search
            </label>
            <input id="global-search" name="q" type="search" placeholder="Search PRDs…" />
            <SearchShortcut />
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
              <li>
                <NavLink to="/exports">Exports</NavLink>
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
                <NavLink to="/approvals">Approvals</NavLink>
              </li>
              <li>
                <NavLink to="/settings">Settings</NavLink>
              </li>
              {isAdmin ? (
                <li>
                  <NavLink to="/admin">Administration</NavLink>
                </li>
              ) : null}
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
            {organizations.length > 1 ? (
              <Form method="post" action="/admin?index" className="inline">
                <input type="hidden" name="intent" value="switch-organization" />
                <label htmlFor="switch-org" className="sr-only">
                  Organization
                </label>
                <select id="switch-org" name="organizationId" defaultValue={organizations.find((o) => o.current)?.id}>
                  {organizations.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                </select>
                <button type="submit">Switch</button>
              </Form>
            ) : null}
            <Form method="post" action="/sign-out">
              <button type="submit">Sign out</button>
            </Form>
            <ThemeToggle />
          </div>
        </AppMenu>
      </aside>
      <main className="main" id="main">
        <Outlet />
      </main>
    </div>
  );
}
