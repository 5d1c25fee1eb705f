import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { ADMIN_ROLES, hasRole } from "~/domain/actor";
import { requireUiActor } from "~/http/ui.server";

/** Platform pages (superadmin) that live under /admin but are not organization administration. */
const PLATFORM_PATHS = ["/admin/flags", "/admin/submissions"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const path = new URL(request.url).pathname;
  if (PLATFORM_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) return { mode: "platform" as const };
  return { mode: hasRole(actor, ADMIN_ROLES) ? ("admin" as const) : ("forbidden" as const), orgName: actor.org.name };
}

export default function AdminLayout() {
  const data = useLoaderData<typeof loader>();
  if (data.mode === "platform") return <Outlet />;
  const tab = ({ isActive }: { isActive: boolean }) => (isActive ? "active" : undefined);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Administration</h1>
          <p>Members, invitations, teams and settings of {data.orgName}.</p>
        </div>
      </div>
      {data.mode === "forbidden" ? (
        <div className="card empty-state" role="alert">
          <h2>Administration is for owners and admins</h2>
          <p>You are signed in without admin rights in {data.orgName}. Ask an owner or admin if you need something changed.</p>
        </div>
      ) : (
        <>
          <nav className="tabs" aria-label="Administration">
            <NavLink to="/admin/dashboard" className={tab}>
              Dashboard
            </NavLink>
            <NavLink to="/admin/members" className={tab}>
              Members
            </NavLink>
            <NavLink to="/admin/invitations" className={tab}>
              Invitations
            </NavLink>
            <NavLink to="/admin/teams" className={tab}>
              Teams
            </NavLink>
            <NavLink to="/admin/settings" className={tab}>
              Organization settings
            </NavLink>
            <NavLink to="/admin/branding" className={tab}>
              Branding
            </NavLink>
            <NavLink to="/admin/domain" className={tab}>
              Domain
            </NavLink>
            <NavLink to="/admin/billing" className={tab}>
              Billing
            </NavLink>
            <NavLink to="/admin/audit" className={tab}>
              Audit log
            </NavLink>
            <NavLink to="/admin/ip-allowlist" className={tab}>
              IP allowlist
            </NavLink>
            <NavLink to="/admin/approvals" className={tab}>
              Approval workflows
            </NavLink>
            <NavLink to="/admin/danger" className={tab}>
              Danger zone
            </NavLink>
          </nav>
          <Outlet />
        </>
      )}
    </>
  );
}
