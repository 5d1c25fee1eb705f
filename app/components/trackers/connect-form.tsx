import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, type FormState, FormAlert, SubmitButton } from "~/components/forms";
import type { TrackerService } from "~/domain/trackers/adapter";

/**
 * The settings page's "connect a tracker" card: a GET form picks the service
 * (works with JavaScript off: choosing and pressing "Show its fields"
 * reloads the page with ?service=…), then the POST form shows that service's
 * fields. Under the "Connect with …" buttons (oauth-connect.tsx) it is the
 * "or paste a token" way.
 */

const COPY: Record<TrackerService, { tokenLabel: string; hint: string; help: ReactNode }> = {
  github: {
    tokenLabel: "GitHub token",
    hint: "Starts with github_pat_ or ghp_.",
    help: (
      <>
        Create a fine-grained personal access token with read and write access to <strong>Issues</strong> on the repositories you will send stories to (or a
        classic token with the <code>repo</code> scope). It is checked with GitHub, then stored encrypted.
      </>
    ),
  },
  linear: {
    tokenLabel: "Linear API key",
    hint: "Starts with lin_api_. Linear → Settings → Security & access → Personal API keys.",
    help: (
      <>
        Create a personal API key in Linear with access to the teams you will send stories to. Issues are created as the key's owner. It is checked with Linear,
        then stored encrypted.
      </>
    ),
  },
  jira: {
    tokenLabel: "Jira API token",
    hint: "From id.atlassian.com → Security → API tokens.",
    help: (
      <>
        Give your Jira Cloud site, the e-mail of the Atlassian account that will create the issues, and an API token of that account. It is checked with Jira,
        then stored encrypted.
      </>
    ),
  },
};

export function ConnectTrackerForm({
  services,
  selected,
  state,
  afterOAuth = false,
}: {
  services: { id: TrackerService; name: string }[];
  selected: TrackerService;
  state: FormState | null;
  /** Shown under "Connect by signing in": the token is the other way. */
  afterOAuth?: boolean;
}) {
  const name = services.find((s) => s.id === selected)?.name ?? selected;
  const copy = COPY[selected];
  const connectState = state?.intent === "connect" ? state : null;
  return (
    <section className="card stack tracker-connect" aria-labelledby="connect-heading">
      <h3 id="connect-heading">{afterOAuth ? `Or paste a ${copy.tokenLabel}` : `Connect ${name}`}</h3>
      {services.length > 1 ? (
        <Form method="get" className="tracker-service-pick">
          <div className="field">
            <label htmlFor="field-service">Service</label>
            <select id="field-service" name="service" defaultValue={selected}>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-secondary btn-sm">
            Show its fields
          </button>
        </Form>
      ) : null}
      <p>{copy.help}</p>
      <FormAlert state={connectState && !connectState.fieldErrors?.token ? connectState : null} />
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="intent" value="connect" />
        <input type="hidden" name="service" value={selected} />
        {selected === "jira" ? (
          <>
            <Field
              label="Site URL"
              name="siteUrl"
              type="url"
              placeholder="https://your-team.atlassian.net"
              state={connectState}
              hint="Your Jira Cloud address."
            />
            <Field label="Account e-mail" name="email" type="email" autoComplete="email" state={connectState} />
          </>
        ) : null}
        <Field label={copy.tokenLabel} name="token" type="password" autoComplete="off" state={connectState} hint={copy.hint} />
        <div>
          <SubmitButton pendingText="Checking the token…">Connect {name}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
