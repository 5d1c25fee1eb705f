import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PROVIDER_SHORT, type ProviderId } from "~/ai/types";
import { FormAlert, Notice } from "~/components/forms";
import { formStateFor } from "~/components/settings/controls";
import { AddMemoryForm, ExtractForm, MemoryFilters, MemoryList } from "~/components/settings/memory";
import { createMemorySchema, extractMemorySchema, listMemoryQuery } from "~/domain/memory/memory.schema";
import { createMemory, deleteMemory, extractMemories, listMemories } from "~/domain/memory/memory.server";
import * as memoryApi from "~/http/api/contracts/memory";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction, underPolicy } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";
import { parsePastedConversation } from "~/utils/paste-conversation";

export const meta: MetaFunction = () => [{ title: "Memory · Settings · PRD Studio" }];

const FILTER_KEYS = ["type", "category", "active", "limit"];
const MAX_LIMIT = 200;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const url = new URL(request.url);
  const parsed = listMemoryQuery.safeParse(Object.fromEntries(url.searchParams));
  // A hand-edited URL with an unknown filter shows the unfiltered list and says so.
  const query = parsed.success ? parsed.data : listMemoryQuery.parse({});
  const [memories, { flash, headers }] = await Promise.all([listMemories(actor, query), readFlash(request)]);
  const more = memories.length === query.limit && query.limit < MAX_LIMIT;
  const next = new URLSearchParams(url.searchParams);
  next.set("limit", String(Math.min(MAX_LIMIT, query.limit + 40)));
  return withHeaders(
    {
      memories,
      filter: { type: query.type, category: query.category, showForgotten: !query.active },
      filtered: Boolean(query.type || query.category || !query.active),
      invalidFilter: !parsed.success,
      moreHref: more ? `/settings/memory?${next}` : null,
      notice: flash?.kind === "notice" ? flash.message : null,
    },
    { headers },
  );
}

/** Back to the list the user was looking at. */
function listUrl(request: Request) {
  const from = new URL(request.url).searchParams;
  const keep = new URLSearchParams([...from].filter(([k]) => FILTER_KEYS.includes(k)));
  const search = keep.toString();
  return search ? `/settings/memory?${search}` : "/settings/memory";
}

function extractionNotice(r: { extracted: number; saved: number; model: string; provider: string }) {
  const known = r.extracted - r.saved;
  const found =
    r.extracted === 0
      ? "Found nothing to remember in that conversation."
      : `Found ${r.extracted}, saved ${r.saved}${known > 0 ? ` (${known} ${known === 1 ? "was" : "were"} already known)` : ""}.`;
  const by =
    r.model === "builtin"
      ? "Extracted by the built-in offline drafter (rule-based, no AI)."
      : `Extracted by ${PROVIDER_SHORT[r.provider as ProviderId] ?? r.provider} (${r.model}).`;
  return `${found} ${by}`;
}

export const action = intentAction({
  add: async ({ actor, values, request }) => {
    const memory = await createMemory(actor, createMemorySchema.parse(values));
    return redirectWithNotice(listUrl(request), `Saved to memory: “${memory.summary}”`);
  },
  forget: async ({ actor, values, request }) => {
    await deleteMemory(actor, values.id ?? "");
    return redirectWithNotice(listUrl(request), "Forgotten: AI requests no longer use that memory. “Show forgotten” still lists it.");
  },
  extract: async ({ actor, values, request }) => {
    const input = extractMemorySchema.parse({ conversation: parsePastedConversation(values.conversation ?? "") });
    // Under the policy of POST /api/memory/extract: the same per-user AI rate, and an AI slot while it runs.
    const result = await underPolicy(actor, memoryApi.extractMemories, { ...input, provider: values.provider }, () =>
      extractMemories(actor, input, request.signal),
    );
    return redirectWithNotice(listUrl(request), extractionNotice(result));
  },
});

export default function MemorySettings() {
  const { memories, filter, filtered, invalidFilter, moreHref, notice } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="stack">
      <Notice message={notice} />
      <section aria-labelledby="memories-heading">
        <div className="card-header">
          <div>
            <h2 id="memories-heading">Your memories</h2>
            <p className="muted">
              What PRD Studio knows about how you work. Your active memories, most important first, go into every AI request you make. They are yours alone:
              nobody else in any organization can see them.
            </p>
          </div>
        </div>
        {invalidFilter ? (
          <div className="alert alert-warning" role="status">
            <p>Some filters in the address were not understood, so all active memories are shown.</p>
          </div>
        ) : null}
        <MemoryFilters filter={filter} filtered={filtered} />
        <FormAlert state={formStateFor(result, ["forget"])} />
        <div className="card">
          <MemoryList memories={memories} filtered={filtered} />
          {moreHref ? (
            <p style={{ marginTop: 12 }}>
              <Link to={moreHref}>Show more memories</Link>
            </p>
          ) : null}
        </div>
      </section>
      <AddMemoryForm state={formStateFor(result, ["add"])} />
      <ExtractForm state={formStateFor(result, ["extract"])} />
    </div>
  );
}
