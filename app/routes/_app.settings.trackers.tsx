import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { type FormState, FormAlert } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { ConnectTrackerForm } from "~/components/trackers/connect-form";
import { isAdmin } from "~/domain/actor";
import { TRACKER_INFO, type TrackerService } from "~/domain/trackers/adapter";
import { connectTracker, disconnectTracker, listTrackerConnections } from "~/domain/trackers/connections.server";
import { connectTrackerSchema } from "~/domain/trackers/trackers.schema";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";
import trackerStyles from "~/styles/trackers.css?url";

export const meta: MetaFunction = () => [{ title: "Issue trackers · Settings · PRD Studio" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: trackerStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const [{ connections, services }, { flash, headers }] = await Promise.all([listTrackerConnections(actor), readFlash(request)]);
  // The service whose connect fields are shown (?service=…, from the picker); the first one offered otherwise.
  const asked = new URL(request.url).searchParams.get("service");
  const selected = services.find((s) => s === asked) ?? services[0] ?? null;
  return withHeaders(
    {
      connections,
      services: services.map((s) => ({ id: s, name: TRACKER_INFO[s].name })),
      selected,
      isAdmin: isAdmin(actor),
      notice: flash?.kind === "notice" ? flash.message : null,
    },
    { headers },
  );
}

export const action = intentAction(
  {
    connect: async ({ actor, values }) => {
      const { connection } = await connectTracker(actor, connectTrackerSchema.parse({ service: values.service || "github", token: values.token }));
      return redirectWithNotice(
        "/settings/trackers",
        `${connection.serviceName} connected as ${connection.accountLabel}. Add the webhook below in ${connection.serviceName} so issue states come back.`,
      );
    },
    disconnect: async ({ actor, values }) => {
      await disconnectTracker(actor, values.connectionId ?? "");
      return redirectWithNotice("/settings/trackers", "Tracker disconnected. Its token was deleted; issues already linked stay listed on their projects.");
    },
  },
  { secretFields: ["token"] },
);

type Connection = ReturnType<typeof useLoaderData<typeof loader>>["connections"][number];

function ConnectionCard({ c, isAdmin }: { c: Connection; isAdmin: boolean }) {
  const headingId = `tracker-${c.id}`;
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <div className="card-header">
        <h3 id={headingId}>
          {c.serviceName} <span className="muted">· {c.accountLabel}</span>
        </h3>
        <span className="badge badge-success">Connected</span>
      </div>
      <p className="muted">
        Connected by {c.createdBy?.name ?? "a former member"} on {new Date(c.createdAt).toLocaleDateString("en-GB", { dateStyle: "medium" })}. Send user stories
        from a project's AI documents page.
      </p>
      {c.lastError ? (
        <p className="tracker-failed" role="status">
          Last problem: {c.lastError}
        </p>
      ) : null}
      {isAdmin && c.webhookSecret ? (
        <div>
          <h4>Webhook, so issue states come back</h4>
          {c.service === "linear" ? (
            <p>
              Linear signs webhooks with a secret you give when the webhook is created through its API (the <code>webhookCreate</code> mutation, see
              docs/trackers.md): use this URL, this secret and the <code>Issue</code> resource type. A webhook made in Linear's settings gets another secret,
              which this server refuses.
            </p>
          ) : (
            <p>
              In {c.serviceName}, open the repository's (or organization's) Settings → Webhooks → Add webhook, choose content type <code>application/json</code>,
              and select the “{TRACKER_INFO[c.service].webhookEvents}” events.
            </p>
          )}
          <dl>
            <dt>Payload URL</dt>
            <dd>
              <code className="tracker-secret">{c.webhookUrl}</code>
            </dd>
            <dt>Secret</dt>
            <dd>
              <code className="tracker-secret">{c.webhookSecret}</code>
            </dd>
          </dl>
        </div>
      ) : null}
      {isAdmin ? (
        <div>
          <PostButton
            intent="disconnect"
            fields={{ connectionId: c.id }}
            className="btn btn-danger btn-sm"
            label={`Disconnect ${c.serviceName} (${c.accountLabel})`}
          >
            Disconnect
          </PostButton>
        </div>
      ) : null}
    </section>
  );
}

export default function TrackersSettings() {
  const { connections, services, selected, isAdmin, notice } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && typeof result === "object" && "formError" in result ? (result as FormState) : null;
  // After a refused connect, keep showing the fields of the service that was tried.
  const tried = services.find((s) => s.id === state?.values?.service)?.id;
  const connectService: TrackerService | null = tried ?? selected;
  return (
    <div className="stack">
      <h2>Issue trackers</h2>
      <p className="muted">Send a PRD's user stories to GitHub or Linear as issues, and see which are open, in progress or done.</p>
      {notice ? (
        <div className="alert alert-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      <FormAlert state={state?.intent === "disconnect" ? state : null} />
      {connections.length === 0 ? (
        <p className="muted">
          {isAdmin ? "No tracker is connected yet." : "No tracker is connected yet. Ask an owner or admin of your organization to connect one."}
        </p>
      ) : (
        connections.map((c) => <ConnectionCard key={c.id} c={c} isAdmin={isAdmin} />)
      )}
      {isAdmin && connectService ? <ConnectTrackerForm services={services} selected={connectService} state={state} /> : null}
    </div>
  );
}
