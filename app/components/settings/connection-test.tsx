import { Form, useNavigation } from "@remix-run/react";
import { FormAlert, type FormState } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { type ConnectionResult, PROVIDER_LABELS, PROVIDER_SHORT, type ProviderId } from "~/ai/types";

/**
 * "Test connection" on the AI providers settings page: what a test or a
 * verified save says, in plain words, and the server's own providers (for
 * owners and admins). Results are announced: a success politely (role
 * status), a failure at once (role alert).
 */

/** What the page's action answers after a test: whose key, and how it went. */
export interface ConnectionTestState {
  intent: string;
  /** "Your OpenAI key", "The organization's Anthropic key", "This server's OpenAI (Local server at localhost:11434)". */
  subject: string;
  connection: ConnectionResult;
}

export const isConnectionTest = (state: unknown): state is ConnectionTestState =>
  typeof state === "object" && state !== null && "connection" in state && "subject" in state;

const works = (c: Extract<ConnectionResult, { ok: true }>) => `connection works (model ${c.model}, ${c.latencyMs} ms)`;

/** One sentence about a test: "Your OpenAI key: connection works (model gpt-4o-mini, 240 ms) — …". */
export function describeTest({ subject, connection: c }: ConnectionTestState) {
  return c.ok ? `${subject}: ${works(c)} — ${c.detail}.` : `${subject}: the connection test failed. ${c.message}`;
}

/**
 * The notice after a key was saved with verification: "<saved>. Connection
 * works (…). <after>" or "<saved>, but the provider could not be reached: …".
 */
export function savedNotice(saved: string, after: string, c: ConnectionResult | undefined) {
  if (!c) return { message: `${saved}. ${after}`, tone: "success" as const };
  if (c.ok) return { message: `${saved}. ${works(c).replace(/^c/, "C")}. ${after}`, tone: "success" as const };
  const why = c.reason === "unreachable" ? "the provider could not be reached" : "the connection test failed";
  return { message: `${saved}, but ${why}: ${c.message} ${after}`, tone: "info" as const };
}

/** The outcome of the last test in this section, or nothing. */
export function ConnectionNote({ state }: { state: ConnectionTestState | null }) {
  const ok = state?.connection.ok === true;
  return (
    <>
      <div role="status" aria-atomic="true" className="connection-status">
        {state && ok ? (
          <div className="alert alert-success">
            <p>{describeTest(state)}</p>
          </div>
        ) : null}
      </div>
      {state && !ok ? (
        <div className="alert alert-error" role="alert">
          <p>{describeTest(state)}</p>
        </div>
      ) : null}
    </>
  );
}

/** A row's "Test connection" button: a form (works without JavaScript) that says "Testing…" while it runs. */
export function TestConnectionButton({ intent, fields, label }: { intent: string; fields: Record<string, string>; label: string }) {
  const navigation = useNavigation();
  const sent = navigation.state === "submitting" ? navigation.formData : undefined;
  const pending = sent?.get("intent") === intent && Object.entries(fields).every(([k, v]) => sent?.get(k) === v);
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn btn-secondary btn-sm" aria-label={label} disabled={pending} aria-busy={pending || undefined}>
        {pending ? "Testing…" : "Test connection"}
      </button>
    </Form>
  );
}

export interface PlatformProviderRow {
  provider: ProviderId;
  where: string;
  model: string;
  hasKey: boolean;
}

/** The providers this server's environment configures: where they live and a test button each, never a key. */
export function PlatformProviders({
  providers,
  state,
  error,
}: {
  providers: PlatformProviderRow[];
  state: ConnectionTestState | null;
  error: FormState | null;
}) {
  return (
    <section className="card" aria-labelledby="platform-heading">
      <div className="card-header">
        <div>
          <h2 id="platform-heading">This server's providers</h2>
          <p>Set in the server's environment (OPENAI_*, ANTHROPIC_*, GOOGLE_*); used when neither you nor the organization has a key.</p>
        </div>
      </div>
      <FormAlert state={error} />
      <ConnectionNote state={state} />
      {providers.length === 0 ? (
        <div className="empty-state">
          <h3>None configured</h3>
          <p>
            Set a provider key, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama, llama.cpp), in the server's
            environment and restart it.
          </p>
        </div>
      ) : (
        <TableScroll label="This server's providers">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Where</th>
                <th scope="col">Model</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {providers.map((p) => (
                <tr key={p.provider}>
                  <th scope="row">{PROVIDER_LABELS[p.provider]}</th>
                  <td>
                    {p.where}
                    {p.hasKey ? null : <span className="muted"> (no key)</span>}
                  </td>
                  <td>
                    <code>{p.model}</code>
                  </td>
                  <td>
                    <TestConnectionButton
                      intent="test-platform"
                      fields={{ provider: p.provider }}
                      label={`Test connection of this server's ${PROVIDER_SHORT[p.provider]}`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
