import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FieldNotes, FormAlert, SubmitButton, Notice } from "~/components/forms";
import { CopyButton } from "~/components/copy-button";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { API_KEY_RATE_LIMIT, createApiKeySchema } from "~/domain/api-keys/api-keys.schema";
import { apiKeyQuota, createApiKey, customRateLimitAllowed, listApiKeys, revokeApiKey } from "~/domain/api-keys/api-keys.server";
import type { ApiKeyScope } from "~/domain/api-keys/scopes";
import { API_KEY_RATE_PER_MINUTE, PLAN_NAMES } from "~/domain/billing/plans";
import { appUrl } from "~/config.server";
import { readFlash, setFlash } from "~/http/ui/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "API keys · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [keys, quota, { flash, headers }] = await Promise.all([listApiKeys(actor), apiKeyQuota(actor), readFlash(request)]);
  const origin = appUrl();
  const customRateLimit = customRateLimitAllowed(actor);
  return withHeaders({ allowed: true as const, keys, ...quota, plan: PLAN_NAMES[actor.org.plan], customRateLimit, flash, origin }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const raw = request.clone();
  const values = await formValues(request);
  // Checkboxes: one `scopes` entry per ticked box, none when nothing is ticked.
  const scopes = (await raw.formData()).getAll("scopes").filter((v): v is string => typeof v === "string");
  values.scopes = scopes.join(",");
  try {
    const flash =
      values.intent === "revoke"
        ? await revokeApiKey(actor, values.keyId ?? "").then(() => ({
            kind: "notice" as const,
            message: `${values.name ?? "The key"} was revoked. Requests using it now fail with 401.`,
          }))
        : {
            kind: "apiKeyCreated" as const,
            // An empty rate limit is the default one.
            apiKey: await createApiKey(actor, createApiKeySchema.parse({ ...values, rateLimit: values.rateLimit?.trim() || undefined, scopes })),
          };
    return redirect("/settings/api-keys", { headers: { "Set-Cookie": await setFlash(flash) } });
  } catch (error) {
    return formFailure(error, values);
  }
}

const SCOPE_CHOICES: { scope: ApiKeyScope; label: string; hint: string }[] = [
  { scope: "read", label: "Read", hint: "See projects, PRDs, comments, files and settings." },
  { scope: "write", label: "Write", hint: "Also create, change and delete projects, PRDs, comments and files. Includes Read." },
  {
    scope: "admin",
    label: "Admin",
    hint: "Also run the organization: create API keys, invite and remove members, change roles, webhooks, billing, the IP allowlist, and delete projects or the whole organization. Includes Read and Write.",
  },
];
const DEFAULT_SCOPES: ApiKeyScope[] = ["read", "write"];

/** A key's scopes in plain words (they nest, so the broadest one says it all). */
function scopeSummary(scopes: readonly string[]) {
  if (scopes.includes("admin")) return "Admin (full access)";
  if (scopes.includes("write")) return "Read and write";
  if (scopes.includes("read")) return "Read only";
  return "No access";
}

const RATE_RANGE = `${API_KEY_RATE_LIMIT.min}–${API_KEY_RATE_LIMIT.max.toLocaleString("en-US")}`;
/** A key's requests per minute, saying when it is the default. */
const rateText = (rateLimit: number | null) =>
  rateLimit === null ? `${API_KEY_RATE_PER_MINUTE} per minute (default)` : `${rateLimit.toLocaleString("en-US")} per minute`;

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium" }) : "—");

/** Requests per minute for the new key (Enterprise): empty is the default. */
function RateLimitField({ error, value }: { error?: string; value?: string }) {
  return (
    <div className="field">
      <label htmlFor="field-rateLimit">Rate limit (requests per minute, optional)</label>
      <input
        id="field-rateLimit"
        name="rateLimit"
        type="number"
        inputMode="numeric"
        min={API_KEY_RATE_LIMIT.min}
        max={API_KEY_RATE_LIMIT.max}
        step={1}
        defaultValue={value ?? ""}
        placeholder={String(API_KEY_RATE_PER_MINUTE)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "field-rateLimit-hint field-rateLimit-error" : "field-rateLimit-hint"}
      />
      <FieldNotes
        id="field-rateLimit"
        hint={`A whole number from ${RATE_RANGE}. Leave empty for the default of ${API_KEY_RATE_PER_MINUTE} per minute. Requests beyond it get 429 until the minute is over.`}
        error={error}
      />
    </div>
  );
}

export default function ApiKeys() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) {
    return (
      <div className="card empty-state">
        <h2>API keys are managed by admins</h2>
        <p>Ask an owner or admin of your organization to create a key for you.</p>
      </div>
    );
  }
  const state = result && "formError" in result ? result : null;
  const created = data.flash?.kind === "apiKeyCreated" ? data.flash.apiKey : null;
  const createdScopes = created ? data.keys.find((k) => k.prefix === created.prefix)?.scopes : undefined;
  // After a failed create, what was ticked; otherwise the defaults.
  const chosenScopes = new Set(state?.values?.intent === "create" ? (state.values.scopes ?? "").split(",") : DEFAULT_SCOPES);
  const scopesError = state?.fieldErrors?.scopes ?? Object.entries(state?.fieldErrors ?? {}).find(([k]) => k.startsWith("scopes."))?.[1];
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const unlimited = data.limit === -1;
  const atLimit = !unlimited && data.used >= data.limit;
  return (
    <div className="stack">
      {created ? (
        <section className="card" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading">Your new key “{created.name}”</h2>
          <div className="alert alert-warning">
            <p>Copy it now: this is the only time it is shown. Store it in a secret manager.</p>
          </div>
          <div className="secret-box">
            <code data-testid="new-api-key">{created.key}</code>
            <CopyButton value={created.key} />
          </div>
          {createdScopes ? (
            <p style={{ marginTop: 12 }}>
              Access: <strong data-testid="new-api-key-scopes">{scopeSummary(createdScopes)}</strong>, within your own role.
            </p>
          ) : null}
          <p className="muted" style={{ marginTop: 12 }}>
            Use it as <code>Authorization: Bearer {created.prefix}…</code> — for example{" "}
            <code>curl -H "Authorization: Bearer $KEY" {data.origin}/api/auth/me</code>
          </p>
        </section>
      ) : null}
      <Notice message={notice} />
      <section className="card" aria-labelledby="keys-heading">
        <div className="card-header">
          <div>
            <h2 id="keys-heading">API keys</h2>
            <p>
              Keys act as the admin who created them, in this organization, limited to the access chosen for each key.{" "}
              {unlimited
                ? "Your plan has no key limit."
                : data.limit === 0
                  ? `The ${data.plan} plan does not include API keys.`
                  : `${data.used} of ${data.limit} used on the ${data.plan} plan.`}
            </p>
          </div>
        </div>
        {data.keys.length === 0 ? (
          <div className="empty-state">
            <h3>No API keys yet</h3>
            <p>Create one to call the PRD Studio API from scripts, CI or other apps.</p>
          </div>
        ) : (
          <TableScroll label="API keys">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Access</th>
                  <th scope="col">Rate limit</th>
                  <th scope="col">Created by</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.keys.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td data-scopes={k.scopes.join(" ")}>{scopeSummary(k.scopes)}</td>
                    <td data-rate-limit={k.rateLimit ?? ""}>{rateText(k.rateLimit)}</td>
                    <td>{k.createdBy.name ?? "—"}</td>
                    <td>{k.lastUsedAt ? date(k.lastUsedAt) : "Never"}</td>
                    <td>{k.expiresAt ? date(k.expiresAt) : "Never"}</td>
                    <td>
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="keyId" value={k.id} />
                        <input type="hidden" name="name" value={k.name} />
                        <button type="submit" className="btn btn-danger btn-sm" aria-label={`Revoke ${k.name}`}>
                          Revoke
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section className="card" aria-labelledby="create-heading" style={{ maxWidth: 560 }}>
        <h2 id="create-heading">Create a key</h2>
        {atLimit ? (
          <div className="alert alert-info">
            <p>
              {data.limit === 0
                ? `API keys are not included in the ${data.plan} plan. Upgrade to Starter (2 keys), Pro (10) or Enterprise (unlimited).`
                : `You have used all ${plural(data.limit, "key")} of the ${data.plan} plan. Revoke one or upgrade for more.`}
            </p>
            <p className="muted">
              Self-hosting? The operator can change a workspace's plan with <code>npm run org:plan -- you@example.com starter</code>.
            </p>
          </div>
        ) : null}
        <FormAlert state={state} />
        <Form method="post" className="form" noValidate hidden={atLimit}>
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" name="name" state={state} placeholder="CI pipeline" hint="So you know where it is used." required />
          <Field label="Expires on (optional)" name="expiresAt" type="date" state={state} hint="Leave empty for a key that does not expire." />
          {data.customRateLimit ? (
            <RateLimitField error={state?.fieldErrors?.rateLimit} value={state?.values?.rateLimit} />
          ) : (
            <p className="muted" id="rate-limit-note">
              Each key may make {API_KEY_RATE_PER_MINUTE} requests per minute. A custom limit per key needs the Enterprise plan.
            </p>
          )}
          <fieldset
            className="field"
            aria-describedby={scopesError ? "field-scopes-hint field-scopes-error" : "field-scopes-hint"}
            aria-invalid={scopesError ? true : undefined}
          >
            <legend>What the key may do</legend>
            {SCOPE_CHOICES.map((c) => (
              <label key={c.scope} htmlFor={`field-scopes-${c.scope}`} style={{ display: "block" }}>
                <input
                  type="checkbox"
                  id={`field-scopes-${c.scope}`}
                  name="scopes"
                  value={c.scope}
                  defaultChecked={chosenScopes.has(c.scope)}
                  aria-describedby={`field-scopes-${c.scope}-hint`}
                />{" "}
                {c.label}{" "}
                <span className="muted" id={`field-scopes-${c.scope}-hint`}>
                  — {c.hint}
                </span>
              </label>
            ))}
            <FieldNotes
              id="field-scopes"
              hint="Give the key only what it needs. It never gets more than your own role allows, and if it leaks it can do only what you ticked here."
              error={scopesError}
            />
          </fieldset>
          <div>
            <SubmitButton pendingText="Creating…">Create API key</SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
