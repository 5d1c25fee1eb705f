import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { TabNav } from "~/components/tab-nav";
import { isAdmin } from "~/domain/actor";
import { requireUiActor } from "~/http/ui/ui.server";

/** Platform pages (superadmin) that live under /admin but are not organization administration. */
const PLATFORM_PATHS = ["/admin/flags", "/admin/submissions"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const path = new URL(request.url).pathname;
  if (PLATFORM_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) return { mode: "platform" as const };
  return { mode: isAdmin(actor) ? ("admin" as const) : ("forbidden" as const), orgName: actor.org.name };
}

const ADMIN_TABS = [
  { to: "/admin/dashboard", label: "Dashboard" },
  { to: "/admin/projects", label: "All projects" },
  { to: "/admin/members", label: "Members" },
  { to: "/admin/invitations", label: "Invitations" },
  { to: "/admin/teams", label: "Teams" },
  { to: "/admin/settings", label: "Organization settings" },
  { to: "/admin/branding", label: "Branding" },
  { to: "/admin/domain", label: "Domain" },
  { to: "/admin/billing", label: "Billing" },
  { to: "/admin/audit", label: "Audit log" },
  { to: "/admin/ip-allowlist", label: "IP allowlist" },
  { to: "/admin/approvals", label: "Approval workflows" },
  { to: "/admin/danger", label: "Danger zone" },
];

export default function AdminLayout() {
  const data = useLoaderData<typeof loader>();
  if (data.mode === "platform") return <Outlet />;
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
          <TabNav label="Administration" tabs={ADMIN_TABS} />
          <Outlet />
        </>
      )}
    </>
  );
}
