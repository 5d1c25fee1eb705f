import { Form, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { FormAlert, type FormState } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { type ConnectionResult, PROVIDER_LABELS, PROVIDER_SHORT, type ProviderId } from "~/ai/types";

/**
 * "Test connection" on the AI providers settings page: what a test or a
 * verified save says, in plain words, and the server's own providers (for
 * owners and admins). The result of a save or a test is shown in the key's
 * own row (KeyStatusRow), right under its Test connection button, and
 * announced: a success politely (role status), a failure at once (role alert).
 */

/** What the page's action answers after a test: whose key, and how it went. */
export interface ConnectionTestState {
  intent: string;
  /** "Your OpenAI key", "The organization's Anthropic key", "This server's OpenAI (Local server at localhost:11434)". */
  subject: string;
  connection: ConnectionResult;
  /** The stored key that was tested (personal and organization keys). */
  keyId?: string;
}

/** What a key's row says after a save or a test. */
export interface KeyStatus {
  /** The row: a stored key's id, or a server provider's id. */
  rowId: string;
  ok: boolean;
  message: string;
}

export const isConnectionTest = (state: unknown): state is ConnectionTestState =>
  typeof state === "object" && state !== null && "connection" in state && "subject" in state;

/** "Connected: OpenAI answered in 240 ms — model gpt-4o-mini is available (2 models listed)." */
const connected = (c: Extract<ConnectionResult, { ok: true }>) => `Connected: ${PROVIDER_SHORT[c.provider]} answered in ${c.latencyMs} ms — ${c.detail}.`;

/** What a test says in the tested key's row: "Connected: …" or "Not connected: <the provider's answer in plain words>". */
export function describeTest(c: ConnectionResult) {
  return c.ok ? connected(c) : `Not connected: ${c.message}`;
}

/** The row status of a test's result. */
export const testStatus = (rowId: string, c: ConnectionResult): KeyStatus => ({ rowId, ok: c.ok, message: describeTest(c) });

/**
 * What the saved key's row says after a save with verification: "<saved>.
 * Connected: … <after>" or "<saved>, but the provider could not be reached: …".
 * (A key the provider refuses is not saved: that error is under the key field.)
 */
export function savedNotice(saved: string, after: string, c: ConnectionResult | undefined) {
  if (!c) return { message: `${saved}. ${after}`, tone: "success" as const };
  if (c.ok) return { message: `${saved}. ${connected(c)} ${after}`, tone: "success" as const };
  const why = c.reason === "unreachable" ? "the provider could not be reached" : "the connection test failed";
  return { message: `${saved}, but ${why}: ${c.message} ${after}`, tone: "info" as const };
}

/** The id of a row's status, for the aria-describedby of its Test connection button. */
export const keyStatusId = (rowId: string) => `key-status-${rowId}`;

/** A table row under a key with what its save or test found: next to the key, not at the top of the page. */
export function KeyStatusRow({ status, columns }: { status: KeyStatus; columns: number }) {
  return (
    <tr className="key-status-row">
      <td colSpan={columns}>
        <p
          id={keyStatusId(status.rowId)}
          className={`key-status ${status.ok ? "key-status-ok" : "key-status-failed"}`}
          role={status.ok ? "status" : "alert"}
          data-testid="key-status"
        >
          {status.message}
        </p>
      </td>
    </tr>
  );
}

/** A row's "Test connection" button: a form (works without JavaScript) that says "Testing…" while it runs; `describedBy`: the row's status. */
export function TestConnectionButton({
  intent,
  fields,
  label,
  describedBy,
}: {
  intent: string;
  fields: Record<string, string>;
  label: string;
  describedBy?: string;
}) {
  const navigation = useNavigation();
  const sent = navigation.state === "submitting" ? navigation.formData : undefined;
  const pending = sent?.get("intent") === intent && Object.entries(fields).every(([k, v]) => sent?.get(k) === v);
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className="btn btn-secondary btn-sm"
        aria-label={label}
        aria-describedby={describedBy}
        disabled={pending}
        aria-busy={pending || undefined}
      >
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
  status,
  error,
}: {
  providers: PlatformProviderRow[];
  /** The last test's result, shown in its provider's row. */
  status: KeyStatus | null;
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
      {providers.length === 0 ? (
        <div className="empty-state">
          <h3>None configured</h3>
          <p>Set a provider key, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama, llama.cpp), in the server's environment and restart it.</p>
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
                <Fragment key={p.provider}>
                  <tr>
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
                        describedBy={status?.rowId === p.provider ? keyStatusId(p.provider) : undefined}
                      />
                    </td>
                  </tr>
                  {status?.rowId === p.provider ? <KeyStatusRow status={status} columns={4} /> : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
