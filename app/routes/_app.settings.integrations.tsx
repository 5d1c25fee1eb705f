import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FieldNotes, type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { NotSetUp } from "~/components/settings/integration-not-set-up";
import { DeliveryIntegrations } from "~/components/settings/delivery-integrations";
import { isAdmin } from "~/domain/actor";
import { AppError } from "~/domain/errors";
import { isFeatureEnabled } from "~/domain/flags/flags.server";
import { disconnect, integrationCards } from "~/domain/integrations/connections.server";
import { deliverySummary } from "~/domain/integrations/delivery-summary.server";
import { exportProject } from "~/domain/integrations/export.server";
import { providerSchema } from "~/domain/integrations/integrations.schema";
import { callbackUrl, startConnect } from "~/domain/integrations/oauth.server";
import { CALLBACK_ERRORS, type CallbackError, notSetUpMessage, PROVIDER_INFO } from "~/domain/integrations/providers";
import { providerSettings } from "~/domain/integrations/settings.server";
import { listProjects } from "~/domain/projects/projects.server";
import { listProjectsSchema } from "~/domain/projects/projects.schema";
import { appUrl } from "~/config.server";
import deliveryIntegrationsStyles from "~/styles/delivery-integrations.css?url";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Integrations · Settings · PRD Studio" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: deliveryIntegrationsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const [cards, projects, delivery, { flash, headers }] = await Promise.all([
    integrationCards(actor),
    listProjects(actor, listProjectsSchema.parse({ limit: 200 })),
    deliverySummary(actor),
    readFlash(request),
  ]);
  const enabled = await Promise.all(cards.map((c) => isFeatureEnabled(actor, c.flag)));
  const url = new URL(request.url);
  const reason = url.searchParams.get("error");
  const failedProvider = providerSchema.safeParse(url.searchParams.get("provider"));
  const callbackError =
    reason && reason in CALLBACK_ERRORS
      ? { message: CALLBACK_ERRORS[reason as CallbackError], service: failedProvider.success ? PROVIDER_INFO[failedProvider.data].service : null }
      : null;
  return withHeaders(
    {
      // Owners and admins get what the server's administrator must register for a service not set up yet.
      cards: cards.map((c, i) => ({ ...c, exportEnabled: enabled[i]!, redirectUri: c.setup ? callbackUrl(c.provider, appUrl()) : null })),
      projects: projects.projects.map((p: { id: string; name: string }) => ({ id: p.id, name: p.name })),
      isAdmin: isAdmin(actor),
      delivery,
      notice: flash?.kind === "notice" ? flash.message : null,
      callbackError,
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const provider = providerSchema.parse(values.provider);
    if (values.intent === "connect") {
      // Said plainly here; the API's 409 names the variables for whoever runs the server.
      if (!providerSettings(provider)) throw new AppError("CONFLICT", 409, notSetUpMessage(provider));
      const { url } = await startConnect(actor, provider, appUrl());
      return redirect(url);
    }
    if (values.intent === "disconnect") {
      await disconnect(actor, provider);
      const message = `${PROVIDER_INFO[provider].service} disconnected. Its stored tokens were deleted.`;
      return redirectWithNotice("/settings/integrations", message);
    }
    if (values.intent === "export") {
      const result = await exportProject(actor, provider, values);
      return { exported: { ...result, service: PROVIDER_INFO[provider].service } };
    }
    throw new AppError("VALIDATION_ERROR", 400, "Unknown action");
  } catch (error) {
    return formFailure(error, values, [], {
      intent: values.intent === "export" ? "export" : values.intent ? `${values.intent}:${values.provider}` : undefined,
    });
  }
}

const date = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium" });

type Card = ReturnType<typeof useLoaderData<typeof loader>>["cards"][number];

function ServiceCard({ card, isAdmin, state }: { card: Card; isAdmin: boolean; state: FormState | null }) {
  const headingId = `integration-${card.provider}`;
  const failed = state?.intent?.endsWith(`:${card.provider}`) ? state : null;
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId}>
            {card.service} <span className="muted">· {card.label}</span>
          </h2>
          <p>Export PRDs as {card.target}.</p>
        </div>
        {card.connected ? (
          <span className="badge badge-success">Connected</span>
        ) : (
          <span className="badge">{card.configured ? "Not connected" : "Not set up"}</span>
        )}
      </div>
      <FormAlert state={failed} />
      {!card.configured ? <NotSetUp card={card} isAdmin={isAdmin} /> : null}
      {card.connected ? (
        <p data-testid={`status-${card.provider}`}>
          Connected to <strong>{card.workspaceName}</strong>
          {card.accountEmail && card.accountEmail !== card.workspaceName ? ` (${card.accountEmail})` : ""} since {date(card.connectedAt!)}.
        </p>
      ) : card.configured ? (
        <p className="muted" data-testid={`status-${card.provider}`}>
          Not connected. Connecting sends you to {card.account} to approve access, then back here.
        </p>
      ) : null}
      <div className="inline">
        {card.configured ? (
          <Form method="post" reloadDocument className="inline-form">
            <input type="hidden" name="intent" value="connect" />
            <input type="hidden" name="provider" value={card.provider} />
            <button type="submit" className="btn">
              {card.connected ? `Reconnect ${card.service}` : `Connect ${card.service}`}
            </button>
          </Form>
        ) : null}
        {card.connected ? (
          <PostButton intent="disconnect" fields={{ provider: card.provider }} className="btn btn-secondary" label={`Disconnect ${card.service}`}>
            Disconnect
          </PostButton>
        ) : null}
      </div>
    </section>
  );
}

function ExportForm({ cards, projects, state }: { cards: Card[]; projects: { id: string; name: string }[]; state: FormState | null }) {
  const targets = cards.filter((c) => c.connected && c.configured && c.exportEnabled);
  const v = state?.values ?? {};
  const err = state?.fieldErrors ?? {};
  return (
    <section className="card" aria-labelledby="export-heading" style={{ maxWidth: 640 }}>
      <h2 id="export-heading">Export a project</h2>
      {projects.length === 0 ? (
        <div className="empty-state">
          <h3>No projects yet</h3>
          <p>
            <Link to="/projects/new">Create a project</Link> and write its PRD, then export it from here.
          </p>
        </div>
      ) : targets.length === 0 ? (
        <div className="empty-state">
          <h3>Nothing to export to yet</h3>
          <p>Connect one of the services above to publish a project's PRD there.</p>
        </div>
      ) : (
        <>
          <FormAlert state={state} />
          <Form method="post" className="form" noValidate>
            <input type="hidden" name="intent" value="export" />
            <div className="field">
              <label htmlFor="field-projectId">Project</label>
              <select
                id="field-projectId"
                name="projectId"
                defaultValue={v.projectId}
                aria-invalid={err.projectId ? true : undefined}
                aria-describedby={err.projectId ? "field-projectId-error" : undefined}
              >
                {projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
              <FieldNotes id="field-projectId" error={err.projectId} />
            </div>
            <fieldset className="field">
              <legend>Export to</legend>
              {targets.map((t, i) => (
                <label key={t.provider}>
                  <input type="radio" name="provider" value={t.provider} defaultChecked={v.provider ? v.provider === t.provider : i === 0} /> {t.service} (
                  {t.workspaceName})
                </label>
              ))}
            </fieldset>
            {targets.some((t) => t.provider === "notes") ? (
              <OptionalField
                name="parentPageId"
                label="Notion parent page (optional)"
                hint="A page id or URL. Empty: the page most recently edited among those shared with the integration."
                state={state}
              />
            ) : null}
            {targets.some((t) => t.provider === "wiki") ? (
              <>
                <OptionalField
                  name="spaceId"
                  label="Confluence space (optional)"
                  hint="A space key such as ENG, or a numeric space id. Empty: your first space."
                  state={state}
                />
                <OptionalField
                  name="parentId"
                  label="Confluence parent page id (optional)"
                  hint="Digits only. Empty: the top level of the space."
                  state={state}
                />
              </>
            ) : null}
            <div>
              <SubmitButton pendingText="Exporting…">Export</SubmitButton>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

function OptionalField({ name, label, hint, state }: { name: string; label: string; hint: string; state: FormState | null }) {
  const id = `field-${name}`;
  const error = state?.fieldErrors?.[name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        defaultValue={state?.values?.[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

export default function Integrations() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && "formError" in result ? (result as FormState) : null;
  const exported = result && "exported" in result ? result.exported : null;
  // A failure about a service that has no card here (a forged post): said at the top.
  const orphan = state?.intent?.includes(":") && !data.cards.some((c) => state.intent?.endsWith(`:${c.provider}`)) ? state : null;
  return (
    <div className="stack">
      <FormAlert state={orphan} />
      {data.callbackError ? (
        <div className="alert alert-error" role="alert">
          <p>
            {data.callbackError.service ? `${data.callbackError.service} was not connected. ` : "Nothing was connected. "}
            {data.callbackError.message}
          </p>
        </div>
      ) : null}
      {data.notice ? (
        <div className="alert alert-success" role="status">
          <p>{data.notice}</p>
        </div>
      ) : null}
      {exported ? (
        <div className="alert alert-success" role="status">
          <p>
            Exported to {exported.service}: <a href={exported.url}>{exported.url}</a>
          </p>
        </div>
      ) : null}
      <DeliveryIntegrations summary={data.delivery} />
      {data.cards.length === 0 ? (
        <section className="card empty-state" aria-labelledby="no-integrations-heading">
          <h2 id="no-integrations-heading">No integrations available yet</h2>
          <p>
            Publishing PRDs to Notion, Confluence or Google Docs appears here once your server administrator sets it up. Ask an owner or admin of your
            organization if you need it.
          </p>
        </section>
      ) : (
        <>
          {data.cards.map((card) => (
            <ServiceCard key={card.provider} card={card} isAdmin={data.isAdmin} state={state} />
          ))}
          <ExportForm cards={data.cards} projects={data.projects} state={state?.intent === "export" ? state : null} />
        </>
      )}
    </div>
  );
}
