import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { resolveProvider } from "~/ai/keys.server";
import { PROVIDER_SHORT, type ProviderId } from "~/ai/types";
import { FormAlert, Notice } from "~/components/forms";
import { formStateFor } from "~/components/settings/controls";
import { AddKeyForm, AnswerStatusLine, KEY_ORDER, KeyTable } from "~/components/settings/provider-keys";
import { ADMIN_ROLES, hasRole } from "~/domain/actor";
import { addProviderKeySchema } from "~/domain/ai-keys/ai-keys.schema";
import {
  addOrgKey,
  addPersonalKey,
  deleteOrgKey,
  deletePersonalKey,
  listOrgKeys,
  listPersonalKeys,
} from "~/domain/ai-keys/ai-keys.server";
import { readFlash, redirectWithNotice } from "~/http/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui.server";

export const meta: MetaFunction = () => [{ title: "AI providers · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const isAdmin = hasRole(actor, ADMIN_ROLES);
  const [personalKeys, orgKeys, resolved, { flash, headers }] = await Promise.all([
    listPersonalKeys(actor),
    isAdmin ? listOrgKeys(actor) : Promise.resolve(null),
    resolveProvider({ userId: actor.user.id, orgId: actor.org.id }),
    readFlash(request),
  ]);
  // Only what the page shows: never credentials.
  const status = { source: resolved.source, provider: resolved.provider, model: resolved.model };
  const notice = flash?.kind === "notice" ? flash.message : null;
  return withHeaders({ isAdmin, personalKeys, orgKeys, status, notice, orgName: actor.org.name }, { headers });
}

const providerName = (p: string | undefined) => PROVIDER_SHORT[p as ProviderId] ?? "AI provider";

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const intent = values.intent ?? "";
  try {
    let message: string;
    switch (intent) {
      case "add-personal": {
        const input = addProviderKeySchema.parse(values);
        await addPersonalKey(actor, input);
        message = `Your ${PROVIDER_SHORT[input.provider]} key was saved. It is encrypted and will not be shown again.`;
        break;
      }
      case "remove-personal":
        await deletePersonalKey(actor, values.keyId ?? "");
        message = `Your ${providerName(values.provider)} key was removed.`;
        break;
      case "add-org": {
        const input = addProviderKeySchema.parse(values);
        await addOrgKey(actor, input);
        message = `The organization's ${PROVIDER_SHORT[input.provider]} key was saved. Members without a personal key now use it.`;
        break;
      }
      case "remove-org":
        await deleteOrgKey(actor, values.keyId ?? "");
        message = `The organization's ${providerName(values.provider)} key was removed.`;
        break;
      default:
        throw new Response("Unknown action", { status: 400 });
    }
    return redirectWithNotice("/settings/ai", message);
  } catch (error) {
    return formFailure(error, values, ["key"], { intent });
  }
}

export default function AiProviderSettings() {
  const { isAdmin, personalKeys, orgKeys, status, notice, orgName } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const personalState = formStateFor(result, ["add-personal", "remove-personal"]);
  const orgState = formStateFor(result, ["add-org", "remove-org"]);
  const removeFailed = (s: typeof personalState) => (s?.intent?.startsWith("remove") ? s : null);
  return (
    <div className="stack">
      <Notice message={notice} />
      <AnswerStatusLine status={status} />
      <p className="muted">
        Every AI request uses the first key that exists, in this order: {KEY_ORDER}. Keys are encrypted at rest and never shown again
        after you add them.
      </p>

      <section className="card" aria-labelledby="personal-heading">
        <div className="card-header">
          <div>
            <h2 id="personal-heading">Your personal keys</h2>
            <p>Used for your AI requests in every organization you work in, before the organization's key.</p>
          </div>
        </div>
        <FormAlert state={removeFailed(personalState)} />
        <KeyTable
          keys={personalKeys}
          intent="remove-personal"
          owner=""
          empty={{
            title: "No personal keys yet",
            text: "Add your own OpenAI, Anthropic or Gemini key to have AI requests billed to your account. Without one, the next in the order answers.",
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
              {isAdmin
                ? `Used by every member of ${orgName} who has no personal key for the provider.`
                : `Owners and admins of ${orgName} manage the organization's keys. Ask one of them if you need AI access without a personal key.`}
            </p>
          </div>
        </div>
        {isAdmin && orgKeys ? (
          <>
            <FormAlert state={removeFailed(orgState)} />
            <KeyTable
              keys={orgKeys}
              intent="remove-org"
              owner="organization "
              empty={{
                title: "No organization keys yet",
                text: "Add a key so members without their own key get AI answers. An OpenAI or Gemini key also builds the organization's semantic search index.",
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
          <FormAlert state={orgState} />
        )}
      </section>
    </div>
  );
}
