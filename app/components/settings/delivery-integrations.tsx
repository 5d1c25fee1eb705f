import { Link } from "@remix-run/react";
import type { DeliverySummary } from "~/domain/integrations/delivery-summary.server";

/** Settings → Integrations: issue trackers, Slack and AI agents, each a line with its state and a link to its page. */
export function DeliveryIntegrations({ summary }: { summary: DeliverySummary }) {
  const { trackers, slack } = summary;
  return (
    <section className="card" aria-labelledby="delivery-integrations-heading">
      <h2 id="delivery-integrations-heading">From PRD to delivery</h2>
      <ul className="delivery-integrations">
        {trackers ? (
          <li>
            <Link to="/settings/trackers">Issue trackers</Link>
            <span className="muted">
              {" "}
              — {trackers.connected.length ? `Connected: ${trackers.connected.join(", ")}` : "GitHub, Linear or Jira: nothing connected yet"}. Send user stories
              as issues and see their state on the PRD.
            </span>
          </li>
        ) : null}
        {slack ? (
          <li>
            <Link to="/settings/slack">Slack</Link>
            <span className="muted">
              {" "}
              —{" "}
              {slack.connected
                ? `${slack.needsReconnect ? "Needs reconnecting" : "Connected"}: ${slack.connected}`
                : slack.configured
                  ? "Not connected"
                  : "Not set up on this server"}
              . Review requests, approvals, mentions and status changes, posted with a link.
            </span>
          </li>
        ) : null}
        <li>
          <Link to="/settings/mcp">AI agents (MCP)</Link>
          <span className="muted"> — let Claude Desktop, Cursor or VS Code read and write your PRDs with an API key.</span>
        </li>
      </ul>
    </section>
  );
}
