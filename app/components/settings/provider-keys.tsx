import { Form } from "@remix-run/react";
import { Fragment } from "react";
import { FormAlert, type FormState, SubmitButton } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { TableScroll } from "~/components/table-scroll";
import { PROVIDER_IDS, PROVIDER_LABELS, PROVIDER_SHORT, type ProviderId } from "~/ai/types";
import { type KeyStatus, KeyStatusRow, keyStatusId, TestConnectionButton } from "./connection-test";
import { SelectControl, TextControl, shortDate, useResetAfterSuccess } from "./controls";

/** Pieces of the AI providers settings page: who answers, key lists and the add-a-key form. */

export const KEY_ORDER = "your personal key, then your organization's key, then the server's key, then the built-in offline drafter (no AI, works offline)";

export interface KeyRow {
  id: string;
  provider: ProviderId;
  name: string | null;
  maskedKey: string;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface AnswerStatus {
  source: "builtin" | "personal" | "organization" | "platform";
  provider: string;
  model: string;
}

const SOURCE_TEXT: Record<Exclude<AnswerStatus["source"], "builtin">, string> = {
  personal: "your personal key",
  organization: "your organization's key",
  platform: "this server's key",
};

/** "What answers right now": a provider and model, or the offline drafter. Never a key. */
export function AnswerStatusLine({ status }: { status: AnswerStatus }) {
  return (
    <div className="alert alert-info answer-status" role="status" data-testid="answer-status">
      <p>
        <strong>What answers right now: </strong>
        {status.source === "builtin" ? (
          <>the built-in offline drafter (rule-based, no AI, works offline). It organises what you write and measures it; add a key below for AI answers.</>
        ) : (
          <>
            {PROVIDER_SHORT[status.provider as ProviderId] ?? status.provider} (model <code>{status.model}</code>) with {SOURCE_TEXT[status.source]}.
          </>
        )}
      </p>
    </div>
  );
}

/**
 * The stored keys of one scope, one row per provider, each with Test connection and Remove buttons;
 * `status`: what the last save or test of one of them found, shown in a row right under that key.
 */
export function KeyTable({
  keys,
  intent,
  testIntent,
  owner,
  empty,
  status,
}: {
  keys: KeyRow[];
  intent: string;
  testIntent: string;
  status: KeyStatus | null;
  /** "" for personal keys, "organization " for the organization's (accessible names stay unique). */
  owner: string;
  empty: { title: string; text: string };
}) {
  if (keys.length === 0) {
    return (
      <div className="empty-state">
        <h3>{empty.title}</h3>
        <p>{empty.text}</p>
      </div>
    );
  }
  return (
    <TableScroll label={owner ? "Organization provider keys" : "Your provider keys"}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Provider</th>
            <th scope="col">Key</th>
            <th scope="col">Name</th>
            <th scope="col">Added</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <Fragment key={k.id}>
              <tr id={`key-${k.id}`}>
                <th scope="row">{PROVIDER_LABELS[k.provider]}</th>
                <td>
                  <code>{k.maskedKey}</code>
                </td>
                <td>{k.name ?? <span className="muted">—</span>}</td>
                <td>{shortDate(k.createdAt)}</td>
                <td>{shortDate(k.lastUsedAt) ?? "Never"}</td>
                <td>
                  <TestConnectionButton
                    intent={testIntent}
                    fields={{ keyId: k.id }}
                    label={`Test connection of ${owner}${PROVIDER_SHORT[k.provider]} key`}
                    describedBy={status?.rowId === k.id ? keyStatusId(k.id) : undefined}
                  />{" "}
                  <PostButton
                    intent={intent}
                    fields={{ keyId: k.id, provider: k.provider }}
                    label={`Remove ${owner}${PROVIDER_SHORT[k.provider]} key`}
                    className="btn btn-danger btn-sm"
                  >
                    Remove
                  </PostButton>
                </td>
              </tr>
              {status?.rowId === k.id ? <KeyStatusRow status={status} columns={6} /> : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

const providerOptions = [{ value: "", label: "Choose a provider" }, ...PROVIDER_IDS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] }))];

/** Add or replace a key. The key field is a write-only password input, never refilled. */
export function AddKeyForm({
  idPrefix,
  intent,
  heading,
  state,
  submitLabel,
}: {
  idPrefix: string;
  intent: string;
  heading: string;
  state: FormState | null;
  submitLabel: string;
}) {
  const headingId = `${idPrefix}-add-heading`;
  const ref = useResetAfterSuccess(intent, Boolean(state));
  return (
    <section aria-labelledby={headingId} className="add-key">
      <h3 id={headingId}>{heading}</h3>
      <FormAlert state={state} />
      <Form method="post" className="form" noValidate aria-labelledby={headingId} ref={ref}>
        <input type="hidden" name="intent" value={intent} />
        <div className="form-row">
          <SelectControl
            id={`${idPrefix}-provider`}
            label="Provider"
            name="provider"
            options={providerOptions}
            state={state}
            hint="A key for a provider replaces the previous one for that provider."
            required
          />
          <TextControl id={`${idPrefix}-name`} label="Name (optional)" name="name" state={state} placeholder="Work account" hint="So you recognise it later." />
        </div>
        <TextControl
          id={`${idPrefix}-key`}
          label="API key"
          name="key"
          type="password"
          autoComplete="off"
          state={state}
          hint="Encrypted at rest and never shown again; the list shows only its first and last characters."
          required
        />
        <div>
          <SubmitButton name="intent" value={intent} pendingText="Saving…">
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
