import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { resolveProvider } from "~/ai/keys.server";
import { PROVIDER_IDS, PROVIDER_SHORT, type ProviderId } from "~/ai/types";
import { FormAlert, type FormState, Notice } from "~/components/forms";
import { isConnectionTest, type KeyStatus, PlatformProviders, savedNotice, testStatus } from "~/components/settings/connection-test";
import { formStateFor } from "~/components/settings/controls";
import { AddKeyForm, AnswerStatusLine, KEY_ORDER, KeyTable } from "~/components/settings/provider-keys";
import { isAdmin } from "~/domain/actor";
import { AppError } from "~/domain/errors";
import { addProviderKeySchema } from "~/domain/ai-keys/ai-keys.schema";
import { addOrgKey, addPersonalKey, deleteOrgKey, deletePersonalKey, listOrgKeys, listPersonalKeys } from "~/domain/ai-keys/ai-keys.server";
import { listPlatformProviders, testAiConnection } from "~/domain/ai-keys/test-connection.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import * as aiKeys from "~/http/api/contracts/ai-keys";
import { guarded, type IntentArgs, intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";
import aiRunStyles from "~/styles/ai-runs.css?url";

export const meta: MetaFunction = () => [{ title: "AI providers · Settings · PRD Studio" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: aiRunStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const admin = isAdmin(actor);
  const platform = admin ? listPlatformProviders(actor) : null;
  const [personalKeys, orgKeys, resolved, { flash, headers }] = await Promise.all([
    listPersonalKeys(actor),
    admin ? listOrgKeys(actor) : Promise.resolve(null),
    resolveProvider({ userId: actor.user.id, orgId: actor.org.id }),
    readFlash(request),
  ]);
  // Only what the page shows: never credentials.
  const status = { source: resolved.source, provider: resolved.provider, model: resolved.model };
  const notice = flash?.kind === "notice" ? { message: flash.message, tone: flash.tone ?? "success" } : null;
  // After a save the notice belongs to the saved key: it is shown in that key's row (?saved=<keyId>), not at the top.
  const savedId = new URL(request.url).searchParams.get("saved");
  const saved = savedId && notice && [...personalKeys, ...(orgKeys ?? [])].some((k) => k.id === savedId) ? savedId : null;
  const savedStatus: KeyStatus | null = saved && notice ? { rowId: saved, ok: notice.tone === "success", message: notice.message } : null;
  return data({ isAdmin: admin, personalKeys, orgKeys, platform, status, notice: saved ? null : notice, savedStatus, orgName: actor.org.name }, { headers });
}

const providerName = (p: string | undefined) => PROVIDER_SHORT[p as ProviderId] ?? "AI provider";
const asProvider = (p: string | undefined) => (PROVIDER_IDS.includes(p as ProviderId) ? (p as ProviderId) : null);

const back = (notice: { message: string; tone?: "success" | "info" }) => redirectWithNotice("/settings/ai", notice.message, notice.tone);
// A saved key's result goes to its row: the address names the key, and the browser scrolls to it.
const backToKey = (keyId: string, notice: { message: string; tone?: "success" | "info" }) =>
  redirectWithNotice(`/settings/ai?saved=${encodeURIComponent(keyId)}#key-${keyId}`, notice.message, notice.tone);

/** The form's provider choice, said plainly when missing (the API's message names the wire values). */
function keyInput(values: Record<string, string>) {
  if (!asProvider(values.provider)) {
    const message = "Choose a provider: OpenAI, Anthropic or Google Gemini.";
    throw new AppError("VALIDATION_ERROR", 400, message, { details: [{ path: "provider", message }] });
  }
  return addProviderKeySchema.parse({ ...values, verify: true });
}

// Tests change nothing, so the page answers with the result itself (no redirect).
const testKey = async ({ actor, values, intent }: IntentArgs) => {
  const kind = intent === "test-personal" ? "personal" : "organization";
  const keyId = values.keyId ?? "";
  const connection = await testAiConnection(actor, { kind, keyId });
  const owner = kind === "personal" ? "Your" : "The organization's";
  return { intent, subject: `${owner} ${PROVIDER_SHORT[connection.provider]} key`, connection, keyId };
};

const noBody = () => undefined;

// Saving from the page always asks the provider first: a key it rejects is not saved.
export const action = intentAction(
  {
    "add-personal": async ({ actor, values }) => {
      const input = keyInput(values);
      const { id, connection } = await addPersonalKey(actor, input);
      const name = PROVIDER_SHORT[input.provider];
      return backToKey(id, savedNotice(`Your ${name} key was saved`, "It is encrypted and will not be shown again.", connection));
    },
    "remove-personal": async ({ actor, values }) => {
      await deletePersonalKey(actor, values.keyId ?? "");
      return back({ message: `Your ${providerName(values.provider)} key was removed.` });
    },
    "add-org": async ({ actor, values }) => {
      const input = keyInput(values);
      const { id, connection } = await addOrgKey(actor, input);
      const name = PROVIDER_SHORT[input.provider];
      return backToKey(id, savedNotice(`The organization's ${name} key was saved`, "Members without a personal key now use it.", connection));
    },
    "remove-org": async ({ actor, values }) => {
      await deleteOrgKey(actor, values.keyId ?? "");
      return back({ message: `The organization's ${providerName(values.provider)} key was removed.` });
    },
    // A test asks the provider: under the policy of its /api operation (role, the AI rate, an AI slot), which has no body.
    "test-personal": guarded(aiKeys.testPersonalKey, testKey, noBody),
    "test-org": guarded(aiKeys.testOrgKey, testKey, noBody),
    "test-platform": guarded(
      aiKeys.testPlatformProvider,
      async ({ actor, values, intent }) => {
        const provider = asProvider(values.provider);
        if (!provider) throw new Response("Unknown provider", { status: 400 });
        const connection = await testAiConnection(actor, { kind: "platform", provider });
        return { intent, subject: `This server's ${PROVIDER_SHORT[provider]}`, connection };
      },
      noBody,
    ),
  },
  { secretFields: ["key"] },
);

export default function AiProviderSettings() {
  const { isAdmin: admin, personalKeys, orgKeys, platform, status, notice, savedStatus, orgName } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const test = isConnectionTest(result) ? result : null;
  const form = test ? null : (result as FormState | undefined);
  const personalState = formStateFor(form, ["add-personal", "remove-personal", "test-personal"]);
  const orgState = formStateFor(form, ["add-org", "remove-org", "test-org"]);
  const platformState = formStateFor(form, ["test-platform"]);
  const failed = (s: typeof personalState) => (s?.intent?.startsWith("add") ? null : s);
  // A save's or a test's result, for the row of the key (or server provider) it was about.
  const rowStatus = (intent: string): KeyStatus | null => {
    if (test?.intent === intent) return testStatus(test.keyId ?? test.connection.provider, test.connection);
    return savedStatus;
  };
  return (
    <div className="stack">
      <Notice message={notice?.message} tone={notice?.tone} />
      <AnswerStatusLine status={status} />
      <p className="muted">
        Every AI request uses the first key that exists, in this order: {KEY_ORDER}. Keys are encrypted at rest and never shown again after you add them.
      </p>

      <section className="card" aria-labelledby="personal-heading">
        <div className="card-header">
          <div>
            <h2 id="personal-heading">Your personal keys</h2>
            <p>Used for your AI requests in every organization you work in, before the organization's key.</p>
          </div>
        </div>
        <FormAlert state={failed(personalState)} />
        <KeyTable
          keys={personalKeys}
          intent="remove-personal"
          testIntent="test-personal"
          owner=""
          status={rowStatus("test-personal")}
          empty={{
            title: "No personal keys yet",
            text: "Add your own OpenAI, Anthropic or Google Gemini key to have AI requests billed to your account. Without one, the next in the order answers.",
          }}
        />
        <AddKeyForm
          idPrefix="personal"
          intent="add-personal"
          heading="Add or replace a personal key"
          state={personalState?.intent === "add-personal" ? personalState : null}
          submitLabel="Save personal key"
        />
      </section>

      <section className="card" aria-labelledby="org-heading">
        <div className="card-header">
          <div>
            <h2 id="org-heading">Organization keys</h2>
            <p>
              {admin
                ? `Used by every member of ${orgName} who has no personal key for the provider.`
                : `Owners and admins of ${orgName} manage the organization's keys. Ask one of them if you need AI access without a personal key.`}
            </p>
          </div>
        </div>
        {admin && orgKeys ? (
          <>
            <FormAlert state={failed(orgState)} />
            <KeyTable
              keys={orgKeys}
              intent="remove-org"
              testIntent="test-org"
              owner="organization "
              status={rowStatus("test-org")}
              empty={{
                title: "No organization keys yet",
                text: "Add a key so members without their own key get AI answers. An OpenAI or Google Gemini key also builds the organization's semantic search index.",
              }}
            />
            <AddKeyForm
              idPrefix="org"
              intent="add-org"
              heading="Add or replace an organization key"
              state={orgState?.intent === "add-org" ? orgState : null}
              submitLabel="Save organization key"
            />
          </>
        ) : (
          <FormAlert state={orgState ?? platformState} />
        )}
      </section>

      {platform ? (
        <PlatformProviders
          providers={platform}
          status={test?.intent === "test-platform" ? testStatus(test.connection.provider, test.connection) : null}
          error={platformState}
        />
      ) : null}
    </div>
  );
}
