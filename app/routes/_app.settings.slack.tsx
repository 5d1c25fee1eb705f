import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { type FormState, FormAlert, Notice } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { SlackRoutingForm } from "~/components/settings/slack-routing-form";
import { appUrl } from "~/config.server";
import {
  SLACK_CALLBACK_ERRORS,
  type SlackCallbackError,
  slackCallbackUrl,
  requireSlackVisible,
  startSlackConnect,
  disconnectSlack,
} from "~/domain/slack/connection.server";
import { sendSlackTest } from "~/domain/slack/deliver.server";
import { saveSlackRouting, slackChannels, slackStatus } from "~/domain/slack/routing.server";
import { routingFromForm } from "~/domain/slack/slack.schema";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";
import slackStyles from "~/styles/slack.css?url";

export const meta: MetaFunction = () => [{ title: "Slack · Settings · PRD Studio" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: slackStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const status = await orPageError(slackStatus(actor));
  const [{ channels, error: channelsError }, { flash, headers }] = await Promise.all([slackChannels(actor), readFlash(request)]);
  const reason = new URL(request.url).searchParams.get("error");
  return withHeaders(
    {
      status,
      channels: channels.map((c) => ({ id: c.id, name: c.name })),
      channelsError,
      redirectUri: status.setup ? slackCallbackUrl(appUrl()) : null,
      notice: flash?.kind === "notice" ? flash.message : null,
      callbackError: reason && reason in SLACK_CALLBACK_ERRORS ? SLACK_CALLBACK_ERRORS[reason as SlackCallbackError] : null,
    },
    { headers },
  );
}

export const action = intentAction({
  connect: async ({ actor }) => {
    requireSlackVisible(actor);
    const { url } = await startSlackConnect(actor, appUrl());
    return redirect(url);
  },
  disconnect: async ({ actor }) => {
    requireSlackVisible(actor);
    await disconnectSlack(actor);
    return redirectWithNotice("/settings/slack", "Slack disconnected. Its token was revoked and deleted.");
  },
  routing: async ({ actor, values }) => {
    requireSlackVisible(actor);
    await saveSlackRouting(actor, routingFromForm(values));
    return { saved: "Channels saved." };
  },
  test: async ({ actor }) => {
    requireSlackVisible(actor);
    const sent = await sendSlackTest(actor, {});
    return { saved: `Test message sent to #${sent.channelName}.` };
  },
});

const date = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default function SlackSettings() {
  const { status, channels, channelsError, redirectUri, notice, callbackError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && "formError" in result ? (result as FormState) : null;
  const saved = result && "saved" in result ? result.saved : null;
  const stateFor = (intent: string) => (state?.intent === intent ? state : null);
  const r = status.routing;
  return (
    <div className="stack" style={{ maxWidth: 760 }}>
      <h1>Slack</h1>
      <p className="muted">Post review requests, approvals, mentions and status changes to your Slack workspace, each with a link to the project.</p>
      <Notice message={notice} />
      <Notice message={saved} />
      <Notice message={callbackError} tone="error" />
      <section className="card" aria-labelledby="slack-connection">
        <h2 id="slack-connection">Connection</h2>
        {!status.configured ? (
          <div className="alert alert-info" data-testid="slack-setup">
            <p>Your server administrator has not set up Slack yet, so it cannot be connected. Members do not see this page until it is set up.</p>
            {status.setup ? (
              <details>
                <summary>What the server administrator needs</summary>
                <ul>
                  <li>
                    Create a Slack app with the bot scopes chat:write, channels:read and groups:read, then set <code>{status.setup.clientId}</code> and{" "}
                    <code>{status.setup.clientSecret}</code> in the server's environment and restart it.
                  </li>
                  {redirectUri ? (
                    <li>
                      Add this redirect URL to the Slack app: <code>{redirectUri}</code>
                    </li>
                  ) : null}
                </ul>
              </details>
            ) : null}
          </div>
        ) : (
          <>
            <FormAlert state={stateFor("connect") ?? stateFor("disconnect")} />
            <div className="slack-status" data-testid="slack-status">
              {status.connected ? (
                <p>
                  {status.needsReconnect ? (
                    <span className="badge badge-danger">Needs reconnecting</span>
                  ) : (
                    <span className="badge badge-success">Connected</span>
                  )}{" "}
                  Workspace <strong>{status.teamName}</strong> since {date(status.connectedAt!)} (UTC).
                </p>
              ) : (
                <p>
                  <span className="badge">Not connected</span>{" "}
                  {status.canManage ? "Connecting sends you to Slack to approve access, then back here." : "An owner or admin can connect Slack."}
                </p>
              )}
            </div>
            {status.lastError ? (
              <p className="slack-last-error" role="alert" data-testid="slack-last-error">
                <strong>Last problem{status.lastErrorAt ? ` (${date(status.lastErrorAt)} UTC)` : ""}:</strong> {status.lastError}
              </p>
            ) : null}
            {status.canManage ? (
              <div className="inline">
                <Form method="post" reloadDocument className="inline-form">
                  <input type="hidden" name="intent" value="connect" />
                  <button type="submit" className="btn">
                    {status.connected ? "Reconnect Slack" : "Connect Slack"}
                  </button>
                </Form>
                {status.connected ? (
                  <PostButton intent="disconnect" className="btn btn-secondary">
                    Disconnect Slack
                  </PostButton>
                ) : null}
              </div>
            ) : null}
          </>
        )}
      </section>
      {status.connected ? (
        <section className="card" aria-labelledby="slack-channels">
          <h2 id="slack-channels">Where messages go</h2>
          {status.canManage && !status.needsReconnect ? (
            <>
              {channelsError ? (
                <div className="alert alert-error" role="alert">
                  <p>Could not list the channels: {channelsError}</p>
                </div>
              ) : null}
              <SlackRoutingForm routing={r} channels={channels} state={stateFor("routing")} />
              <h3>Test</h3>
              <FormAlert state={stateFor("test")} />
              <PostButton intent="test" className="btn btn-secondary">
                Send a test message{r.defaultChannel ? ` to #${r.defaultChannel.channelName}` : ""}
              </PostButton>
            </>
          ) : (
            <ul className="slack-overrides" data-testid="slack-routing-readonly">
              <li>Default channel: {r.defaultChannel ? `#${r.defaultChannel.channelName}` : "none"}</li>
              {Object.entries(r.events).map(([kind, c]) =>
                c ? (
                  <li key={kind}>
                    {kind.replace(/_/g, " ")}: #{c.channelName}
                  </li>
                ) : null,
              )}
            </ul>
          )}
          <h3>Project channels</h3>
          {r.projects.length ? (
            <ul className="slack-overrides">
              {r.projects.map((p) => (
                <li key={p.projectId}>
                  <a href={`/projects/${p.projectId}/settings`}>{p.projectName}</a>: #{p.channelName}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No project has its own channel. Choose one in a project's settings.</p>
          )}
        </section>
      ) : null}
    </div>
  );
}
