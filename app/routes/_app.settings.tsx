import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { TabNav } from "~/components/tab-nav";
import { isAdmin } from "~/domain/actor";
import { slackSettings } from "~/domain/slack/client.server";
import { trackersShown } from "~/domain/trackers/connections.server";
import { requireUiActor } from "~/http/ui/ui.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  // Slack the operator has not set up, and trackers nobody connected, are not shown to members (docs/integrations.md, docs/trackers.md).
  return { isAdmin: isAdmin(actor), showSlack: isAdmin(actor) || slackSettings() !== null, showTrackers: await trackersShown(actor) };
}

export default function SettingsLayout() {
  const { isAdmin, showSlack, showTrackers } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Settings</h1>
          <p>Your account, security, notifications, AI providers, what the AI remembers about you, and developer access.</p>
        </div>
      </div>
      <TabNav
        label="Settings"
        tabs={[
          { to: "/settings", label: "Account", end: true },
          { to: "/settings/security", label: "Security" },
          { to: "/settings/ai", label: "AI providers" },
          { to: "/settings/memory", label: "Memory" },
          { to: "/settings/notifications", label: "Notifications" },
          { to: "/settings/integrations", label: "Integrations" },
          ...(showTrackers ? [{ to: "/settings/trackers", label: "Issue trackers" }] : []),
          ...(showSlack ? [{ to: "/settings/slack", label: "Slack" }] : []),
          ...(isAdmin
            ? [
                { to: "/settings/api-keys", label: "API keys" },
                { to: "/settings/webhooks", label: "Webhooks" },
                { to: "/settings/incoming-webhooks", label: "Incoming webhooks" },
              ]
            : []),
          { to: "/settings/mcp", label: "AI agents (MCP)" },
          { to: "/settings/outbox", label: "Outbox" },
        ]}
      />
      <Outlet />
    </>
  );
}
