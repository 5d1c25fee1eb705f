import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { useAiMocks } from "../mocks/server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { type Account, setPlan } from "../support/org";

registerBackgroundWork();

/**
 * Semantic and hybrid search with embeddings from a provider (OpenAI's
 * embeddings API through the SDK, against the stand-in): PRDs are embedded
 * in the background when they change, the query is embedded per request,
 * ranks are fused, tenants stay apart, and a failing provider falls back to
 * keyword search and says so.
 */

const ai = useAiMocks();
let a: Account;
let b: Account;
const ids: Record<string, string> = {};

const PRDS: Record<string, [string, string]> = {
  invoices: [
    "Invoice chaser",
    "# Invoice chaser\n\nAccounts receivable clerks send reminders for unpaid invoices older than 90 days and escalate overdue invoices.",
  ],
  warehouse: ["Bin finder", "# Bin finder\n\nWarehouse pickers scan bins with handheld scanners to find stock faster on each shift."],
  checkout: ["One-tap checkout", "# One-tap checkout\n\nShoppers on mobile pay with a saved card in a single tap at checkout."],
};

async function createWithPrd(account: Account, name: string, content: string) {
  const id = (await account.client.post("/api/projects", { name })).body.id as string;
  const saved = await account.client.post(`/api/projects/${id}/prd`, { content });
  expect(saved.status, saved.text).toBeLessThan(300);
  return id;
}

const search = (account: Account, q: string, mode: string) => account.client.get(`/api/search?${new URLSearchParams({ q, mode })}`);

beforeAll(async () => {
  setEnv({ OPENAI_API_KEY: "sk-platform-embed-0000000000" });
  a = await signedUpClient({ name: "Sema Searcher" });
  b = await signedUpClient({ name: "Other Org" });
  await setPlan(a.organization.id, "pro");
  await setPlan(b.organization.id, "pro");
  for (const [key, [name, content]] of Object.entries(PRDS)) ids[key] = await createWithPrd(a, name, content);
  ids.foreign = await createWithPrd(b, "Invoice reminders elsewhere", PRDS.invoices![1]);
  await runDueJobs();
});

afterAll(() => setEnv({ OPENAI_API_KEY: undefined }));

describe("the embedding index", () => {
  it("embeds every PRD in the background with the organization's provider, once per text", async () => {
    const rows = await db.selectFrom("projectEmbeddings").select(["projectId", "orgId", "model", "dims"]).execute();
    expect(rows.filter((r) => r.orgId === a.organization.id)).toHaveLength(3);
    for (const r of rows) expect(r).toMatchObject({ model: "provider_a:text-embedding-3-small", dims: 64 });
    // One embedding call per organization project (4 PRDs in all, each embedded once).
    expect(ai.openai.requests.filter((r) => r.kind === "embed")).toHaveLength(4);
    ai.openai.reset();
    // Saving the same text again does not call the provider; a change does.
    await a.client.post(`/api/projects/${ids.checkout}/prd`, { content: PRDS.checkout![1] });
    await runDueJobs();
    expect(ai.openai.requests.filter((r) => r.kind === "embed")).toHaveLength(0);
    const before = await db.selectFrom("projectEmbeddings").select("contentHash").where("projectId", "=", ids.checkout!).executeTakeFirstOrThrow();
    await a.client.post(`/api/projects/${ids.checkout}/prd`, { content: `${PRDS.checkout![1]}\n\nApple Pay and Google Pay too.` });
    await runDueJobs();
    const embed = ai.openai.requests.find((r) => r.kind === "embed")!;
    expect(embed.body.model).toBe("text-embedding-3-small");
    expect(embed.headers.authorization).toBe("Bearer sk-platform-embed-0000000000");
    const after = await db.selectFrom("projectEmbeddings").select("contentHash").where("projectId", "=", ids.checkout!).executeTakeFirstOrThrow();
    expect(after.contentHash).not.toBe(before.contentHash);
  });
});

describe("GET /api/search?mode=semantic|hybrid", () => {
  it("semantic ranks by meaning within the caller's organization only", async () => {
    const res = await search(a, "reminders for overdue unpaid invoices", "semantic");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ mode: "semantic", requestedMode: "semantic" });
    expect(res.body.results[0].projectId).toBe(ids.invoices);
    const found = res.body.results.map((r: { projectId: string }) => r.projectId);
    expect(found).not.toContain(ids.foreign);
    for (const r of res.body.results) expect(r.score).toBeGreaterThanOrEqual(0.2);
    const query = ai.openai.requests.find((r) => r.kind === "embed")!;
    expect(query.body.input).toEqual(["reminders for overdue unpaid invoices"]);
  });

  it("hybrid fuses keyword and semantic ranks", async () => {
    const res = await search(a, "scanners", "hybrid");
    expect(res.status, res.text).toBe(200);
    expect(res.body.mode).toBe("hybrid");
    expect(res.body.results[0]).toMatchObject({ projectId: ids.warehouse });
    expect(res.body.results[0].snippet).toContain("<mark>");
    // Fused score of a hit ranked first in both lists: 2 / (60 + 1).
    expect(res.body.results[0].score).toBeCloseTo(2 / 61, 4);
    const foreign = await search(b, "scanners", "hybrid");
    expect(foreign.body.results.map((r: { projectId: string }) => r.projectId)).not.toContain(ids.warehouse);
  });

  it("falls back to keyword results and says why when the provider fails", async () => {
    ai.openai.queue({ kind: "http_error", status: 500 });
    const res = await search(a, "invoices", "semantic");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: "keyword", requestedMode: "semantic" });
    expect(res.body.notice).toMatch(/embedding provider failed/);
    expect(res.body.results[0].projectId).toBe(ids.invoices);
  });
});
