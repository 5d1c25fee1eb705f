import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { ADMIN_ROLES, hasRole } from "~/domain/actor";
import { requireUiActor } from "~/http/ui.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return { isAdmin: hasRole(actor, ADMIN_ROLES) };
}

export default function SettingsLayout() {
  const { isAdmin } = useLoaderData<typeof loader>();
  const tab = ({ isActive }: { isActive: boolean }) => (isActive ? "active" : undefined);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Settings</h1>
          <p>Your account, security, notifications, AI providers, what the AI remembers about you, and developer access.</p>
        </div>
      </div>
      <nav className="tabs" aria-label="Settings">
        <NavLink to="/settings" end className={tab}>
          Account
        </NavLink>
        <NavLink to="/settings/security" className={tab}>
          Security
        </NavLink>
        <NavLink to="/settings/ai" className={tab}>
          AI providers
        </NavLink>
        <NavLink to="/settings/memory" className={tab}>
          Memory
        </NavLink>
        <NavLink to="/settings/notifications" className={tab}>
          Notifications
        </NavLink>
        {isAdmin ? (
          <>
            <NavLink to="/settings/api-keys" className={tab}>
              API keys
            </NavLink>
            <NavLink to="/settings/webhooks" className={tab}>
              Webhooks
            </NavLink>
            <NavLink to="/settings/incoming-webhooks" className={tab}>
              Incoming webhooks
            </NavLink>
          </>
        ) : null}
        <NavLink to="/settings/outbox" className={tab}>
          Outbox
        </NavLink>
      </nav>
      <Outlet />
    </>
  );
}
