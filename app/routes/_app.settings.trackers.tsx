import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect, data as withHeaders } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FieldNotes, type FormState, FormAlert } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { AllowedTargetsSummary } from "~/components/trackers/allowed-targets";
import { ConnectTrackerForm } from "~/components/trackers/connect-form";
import { OAuthConnect, ReconnectButton } from "~/components/trackers/oauth-connect";
import { appUrl } from "~/config.server";
import { isAdmin } from "~/domain/actor";
import { TRACKER_INFO, type TrackerService } from "~/domain/trackers/adapter";
import { connectTracker, disconnectTracker, listTrackerConnections, setTrackerWebhookSecret } from "~/domain/trackers/connections.server";
import { startTrackerOAuth } from "~/domain/trackers/oauth.server";
import { connectTrackerSchema, trackerServiceSchema, webhookSecretSchema } from "~/domain/trackers/trackers.schema";
import { AppError } from "~/domain/errors";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";
import trackerOAuthStyles from "~/styles/tracker-oauth.css?url";
import trackerStyles from "~/styles/trackers.css?url";

export const meta: MetaFunction = () => [{ title: "Issue trackers · Settings · PRD Studio" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: trackerStyles },
  { rel: "stylesheet", href: trackerOAuthStyles },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const [{ connections, services, oauth }, { flash, headers }] = await Promise.all([listTrackerConnections(actor), readFlash(request)]);
  // The service whose connect fields are shown (?service=…, from the picker); the first one offered otherwise.
  const asked = new URL(request.url).searchParams.get("service");
  const selected = services.find((s) => s === asked) ?? services[0] ?? null;
  return withHeaders(
    {
      connections,
      services: services.map((s) => ({ id: s, name: TRACKER_INFO[s].name })),
      // Services an admin can connect by signing in (their OAuth client is configured); empty for members.
      oauth: oauth.map((s) => ({ id: s, name: TRACKER_INFO[s].name })),
      selected,
      isAdmin: isAdmin(actor),
      notice: flash?.kind === "notice" ? { message: flash.message, error: flash.tone === "error" } : null,
    },
    { headers },
  );
}

export const action = intentAction(
  {
    // "Connect with …": off to the service's consent page (its callback comes back here with a notice).
    oauth: async ({ actor, values }) => {
      const { url } = await startTrackerOAuth(actor, trackerServiceSchema.parse(values.service), appUrl());
      return redirect(url);
    },
    connect: async ({ actor, values }) => {
      const service = values.service || "github";
      const settings = service === "jira" ? { siteUrl: values.siteUrl ?? "", email: values.email ?? "" } : undefined;
      const { connection } = await connectTracker(actor, connectTrackerSchema.parse({ service, token: values.token, settings })).catch(formFields);
      return redirectWithNotice(
        "/settings/trackers",
        `${connection.serviceName} connected as ${connection.accountLabel}. Add the webhook below in ${connection.serviceName} so issue states come back.`,
      );
    },
    webhookSecret: async ({ actor, values }) => {
      const { connection } = await setTrackerWebhookSecret(actor, values.connectionId ?? "", webhookSecretSchema.parse({ secret: values.secret }));
      return redirectWithNotice("/settings/trackers", `${connection.serviceName} webhooks are now checked with the signing secret you pasted.`);
    },
    disconnect: async ({ actor, values }) => {
      await disconnectTracker(actor, values.connectionId ?? "");
      return redirectWithNotice("/settings/trackers", "Tracker disconnected. Its token was deleted; issues already linked stay listed on their projects.");
    },
  },
  { secretFields: ["token", "secret"] },
);

/** Settings errors of the API (`settings.siteUrl`) next to the page's fields (`siteUrl`). */
function formFields(error: unknown): never {
  if (error instanceof AppError && error.details)
    throw new AppError(error.code, error.status, error.message, { details: error.details.map((d) => ({ ...d, path: d.path.replace(/^settings\./, "") })) });
  throw error;
}

type Connection = ReturnType<typeof useLoaderData<typeof loader>>["connections"][number];

function WebhookSteps({ c }: { c: Connection }) {
  if (c.service === "linear")
    return (
      <p>
        In Linear, open Settings → API → Webhooks → New webhook, paste this URL and select the <strong>Issues</strong> data change events. Linear then shows its
        own signing secret: copy it into “Use the signing secret from Linear” below and save, so this server checks Linear's signature.
      </p>
    );
  if (c.service === "jira")
    return (
      <p>
        In Jira, open Settings → System → WebHooks → Create a WebHook, paste this URL and this secret, and select the Issue created, updated and deleted events.
      </p>
    );
  return (
    <p>
      In {c.serviceName}, open the repository's (or organization's) Settings → Webhooks → Add webhook, choose content type <code>application/json</code>, and
      select the “{TRACKER_INFO[c.service].webhookEvents}” events.
    </p>
  );
}

/** Pasting a secret the service generated (Linear makes its own): a plain POST form, one per connection. */
function SecretForm({ c, state }: { c: Connection; state: FormState | null }) {
  const id = `secret-${c.id}`;
  const error = state?.fieldErrors?.secret;
  return (
    <Form method="post" className="form" noValidate>
      <input type="hidden" name="intent" value="webhookSecret" />
      <input type="hidden" name="connectionId" value={c.id} />
      <div className="field">
        <label htmlFor={id}>Use the signing secret from {c.serviceName}</label>
        <input
          id={id}
          name="secret"
          type="password"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={[`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ")}
        />
        <FieldNotes id={id} hint={`Replaces the secret above; webhooks signed with the old one are refused.`} error={error} />
      </div>
      <div>
        <button type="submit" className="btn btn-secondary btn-sm">
          Save
        </button>
      </div>
    </Form>
  );
}

function ConnectionCard({ c, isAdmin, canReconnect, state }: { c: Connection; isAdmin: boolean; canReconnect: boolean; state: FormState | null }) {
  const headingId = `tracker-${c.id}`;
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <div className="card-header">
        <h3 id={headingId}>
          {c.serviceName} <span className="muted">· {c.accountLabel}</span>
        </h3>
        <span className="tracker-auth-kind">
          {c.needsReconnect ? <span className="badge badge-warning">Needs reconnecting</span> : null}
          <span className={c.needsReconnect ? "badge" : "badge badge-success"}>
            {c.authKind === "oauth" ? "Connected with OAuth" : "Connected with a token"}
          </span>
        </span>
      </div>
      <p className="muted">
        Connected by {c.createdBy?.name ?? "a former member"} on {new Date(c.createdAt).toLocaleDateString("en-GB", { dateStyle: "medium" })}. Send user stories
        from a project's AI documents page, its PRD editor (select the stories) or its Send to tracker page.
      </p>
      <AllowedTargetsSummary c={c} isAdmin={isAdmin} />
      {c.lastError ? (
        <p className="tracker-failed" role="status">
          Last problem: {c.lastError}
        </p>
      ) : null}
      {isAdmin && c.webhookSecret ? (
        <div>
          <h4>Webhook, so issue states come back</h4>
          <WebhookSteps c={c} />
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
          <SecretForm c={c} state={state?.intent === "webhookSecret" && state.values?.connectionId === c.id ? state : null} />
        </div>
      ) : null}
      {isAdmin ? (
        <div className="inline">
          {c.needsReconnect && canReconnect ? <ReconnectButton service={c.service} name={c.serviceName} /> : null}
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
  const { connections, services, oauth, selected, isAdmin, notice } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && typeof result === "object" && "formError" in result ? (result as FormState) : null;
  // After a refused connect, keep showing the fields of the service that was tried.
  const tried = services.find((s) => s.id === state?.values?.service)?.id;
  const connectService: TrackerService | null = tried ?? selected;
  return (
    <div className="stack">
      <h2>Issue trackers</h2>
      <p className="muted">Send a PRD's user stories to GitHub, Linear or Jira as issues, and see which are open, in progress or done.</p>
      {notice ? (
        <div className={notice.error ? "alert alert-error" : "alert alert-success"} role={notice.error ? "alert" : "status"}>
          <p>{notice.message}</p>
        </div>
      ) : null}
      <FormAlert state={state?.intent === "oauth" ? state : null} />
      <FormAlert state={state?.intent === "disconnect" || (state?.intent === "webhookSecret" && !state.fieldErrors?.secret) ? state : null} />
      {connections.length === 0 ? (
        <p className="muted">
          {isAdmin
            ? "No tracker is connected yet."
            : "No tracker is connected yet. An owner or admin of your organization can connect GitHub, Linear or Jira here: ask one of them."}
        </p>
      ) : (
        connections.map((c) => <ConnectionCard key={c.id} c={c} isAdmin={isAdmin} canReconnect={oauth.some((s) => s.id === c.service)} state={state} />)
      )}
      {isAdmin && oauth.length > 0 ? <OAuthConnect services={oauth} /> : null}
      {isAdmin && connectService ? <ConnectTrackerForm services={services} selected={connectService} state={state} afterOAuth={oauth.length > 0} /> : null}
    </div>
  );
}
