import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { useAiMocks } from "../mocks/server";
import { setEnv } from "../support/ai";
import { type ApiResult, ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { type Account, joinOrg } from "../support/org";
import { pageText } from "../support/page";

useAiMocks();

/**
 * The AI providers and Memory settings pages, driven like a browser without
 * JavaScript: plain form posts, redirects, then the page again.
 */

const SECRET = "sk-page-test-abcdefghijklmnopqrstuvwxyz-9876";
const ORG_SECRET = "sk-ant-org-secret-0000000000000000000-4321";

/**
 * Posts a form like a browser without JavaScript: urlencoded, same origin,
 * with the Host header browsers always send (Remix compares it with Origin).
 */
const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });

/** The page's text as a reader sees it (entities decoded, tags and whitespace collapsed). */
const text = (res: ApiResult) => pageText(res).replace(/ ([).,])/g, "$1");

/** A POST that succeeded redirects (PRG); the next GET shows the flash. */
async function submit(client: TestClient, path: string, fields: Record<string, string>) {
  const res = await postForm(client, path, fields);
  expect(res.status, res.text.slice(0, 500)).toBe(302);
  const location = res.headers.get("Location")!;
  const page = await client.get(location);
  expect(page.status).toBe(200);
  return { location, page };
}

let owner: Account;
let member: Account;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  member = await joinOrg(owner.organization.id, "member", "Milo Member");
});

describe("AI providers page (/settings/ai)", () => {
  it("says the offline drafter answers when there are no keys, and explains the key order", async () => {
    const page = await member.client.get("/settings/ai");
    expect(page.status).toBe(200);
    const t = text(page);
    expect(t).toContain("What answers right now: the built-in offline drafter");
    expect(t).toContain("your personal key, then your organization's key, then the server's key, then the built-in offline drafter (no AI, works offline)");
    expect(t).toContain("No personal keys yet");
    const keyInput = /<input[^>]*name="key"[^>]*>/.exec(page.text)?.[0] ?? "";
    expect(keyInput).toContain('type="password"');
    expect(keyInput).toMatch(/autocomplete="off"/i);
  });

  it("adds a personal key through the form: masked on the page and in the API, never echoed", async () => {
    const { page } = await submit(member.client, "/settings/ai", { intent: "add-personal", provider: "provider_b", key: SECRET, name: "Side project" });
    const t = text(page);
    expect(t).toContain("Your Anthropic key was saved.");
    expect(t).toContain("sk-…9876");
    expect(t).toContain("Side project");
    expect(t).toMatch(/What answers right now: Anthropic \(model claude[^)]*\) with your personal key\./);
    expect(page.text).toContain('aria-label="Remove Anthropic key"');
    expect(page.text).not.toContain(SECRET);

    const api = await member.client.get("/api/user/api-keys");
    expect(api.body.apiKeys).toEqual([expect.objectContaining({ provider: "provider_b", name: "Side project", maskedKey: "sk-…9876", scope: "user" })]);
    expect(api.text).not.toContain(SECRET);
    // The flash is shown once.
    expect(text(await member.client.get("/settings/ai"))).not.toContain("Your Anthropic key was saved.");
  });

  it("re-renders a failed submit with field errors but without the key", async () => {
    const missingProvider = await postForm(member.client, "/settings/ai", { intent: "add-personal", provider: "", key: SECRET });
    expect(missingProvider.status).toBe(400);
    expect(missingProvider.text).not.toContain(SECRET);
    expect(missingProvider.text).toContain('role="alert"');
    expect(missingProvider.text).toMatch(/id="personal-provider"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="personal-provider"/);
    expect(text(missingProvider)).toContain("Choose a provider: OpenAI, Anthropic or Google Gemini.");
    expect(text(missingProvider)).not.toContain("provider_a");

    const spaced = `${SECRET} extra`;
    const badKey = await postForm(member.client, "/settings/ai", { intent: "add-personal", provider: "provider_a", key: spaced, name: "Kept name" });
    expect(badKey.status).toBe(400);
    expect(badKey.text).not.toContain(SECRET);
    expect(text(badKey)).toContain("key must not contain spaces");
    expect(badKey.text).toContain('value="Kept name"');
    expect(badKey.text).toMatch(/aria-describedby="personal-key-hint personal-key-error"/);
  });

  it("removes a personal key; the offline drafter answers again", async () => {
    const [key] = (await member.client.get("/api/user/api-keys")).body.apiKeys;
    const { page } = await submit(member.client, "/settings/ai", { intent: "remove-personal", keyId: key.id, provider: "provider_b" });
    expect(text(page)).toContain("Your Anthropic key was removed.");
    expect(text(page)).toContain("What answers right now: the built-in offline drafter");
    expect((await member.client.get("/api/user/api-keys")).body.apiKeys).toEqual([]);

    const again = await postForm(member.client, "/settings/ai", { intent: "remove-personal", keyId: key.id });
    expect(again.status).toBe(404);
    expect(again.text).toContain('role="alert"');
  });

  it("members see a note instead of the organization's keys, and cannot add one through the form", async () => {
    const page = await member.client.get("/settings/ai");
    const t = text(page);
    expect(t).toContain("Organization keys");
    expect(t).toContain("Owners and admins of");
    expect(page.text).not.toContain("add-org");
    expect(t).not.toContain("No organization keys yet");

    const res = await postForm(member.client, "/settings/ai", { intent: "add-org", provider: "provider_a", key: ORG_SECRET });
    expect(res.status).toBe(403);
    expect(res.text).not.toContain(ORG_SECRET);
    expect(text(res)).toContain("manage the organization's AI keys");
    expect((await owner.client.get("/api/organization/ai-keys")).body.apiKeys).toEqual([]);
  });

  it("admins manage organization keys; members then get answers from the organization's key", async () => {
    const before = await owner.client.get("/settings/ai");
    expect(text(before)).toContain("No organization keys yet");

    const { page } = await submit(owner.client, "/settings/ai", { intent: "add-org", provider: "provider_c", key: ORG_SECRET });
    expect(text(page)).toContain("The organization's Google Gemini key was saved.");
    expect(text(page)).toContain("sk-…4321");
    expect(page.text).toContain('aria-label="Remove organization Google Gemini key"');
    expect(page.text).not.toContain(ORG_SECRET);
    expect(text(page)).toMatch(/What answers right now: Google Gemini \(model [^)]+\) with your organization's key\./);

    const memberPage = await member.client.get("/settings/ai");
    expect(text(memberPage)).toMatch(/What answers right now: Google Gemini .* with your organization's key\./);
    expect(memberPage.text).not.toContain("sk-…4321");

    const [orgKey] = (await owner.client.get("/api/organization/ai-keys")).body.apiKeys;
    // A member cannot remove it through the form either.
    expect((await postForm(member.client, "/settings/ai", { intent: "remove-org", keyId: orgKey.id })).status).toBe(403);
    const removed = await submit(owner.client, "/settings/ai", { intent: "remove-org", keyId: orgKey.id, provider: "provider_c" });
    expect(text(removed.page)).toContain("The organization's Google Gemini key was removed.");
    expect((await owner.client.get("/api/organization/ai-keys")).body.apiKeys).toEqual([]);
  });
});

describe("Memory page (/settings/memory)", () => {
  let ana: Account;
  beforeAll(async () => {
    ana = await signedUpClient({ name: "Ana Memory" });
  });

  it("explains memories when there are none", async () => {
    const page = await ana.client.get("/settings/memory");
    expect(page.status).toBe(200);
    expect(text(page)).toContain("No memories yet");
    expect(text(page)).toContain("PRD Studio includes your active memories, most important first, in every AI request");
  });

  it("adds memories through the form, with validation next to the fields", async () => {
    const bad = await postForm(ana.client, "/settings/memory", { intent: "add", memoryType: "preference", category: "style", content: " ", importance: "11" });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="memory-content"[^>]*aria-invalid="true"/);
    expect(text(bad)).toContain("content is required");
    expect(text(bad)).toContain("importance must be from 1 to 10");

    const { page } = await submit(ana.client, "/settings/memory", {
      intent: "add",
      memoryType: "preference",
      category: "style",
      content: "Write PRDs in British English. Keep them short.",
      summary: "",
      importance: "8",
    });
    expect(text(page)).toContain("Saved to memory: “Write PRDs in British English.”");
    expect(text(page)).toContain("Importance 8/10");
    expect(text(page)).toContain("Keep them short.");
    await submit(ana.client, "/settings/memory", {
      intent: "add",
      memoryType: "decision",
      category: "technical",
      content: "The API is REST, not GraphQL.",
      importance: "",
    });
  });

  it("filters by type and category with a plain GET form", async () => {
    const decisions = text(await ana.client.get("/settings/memory?type=decision&category="));
    expect(decisions).toContain("The API is REST, not GraphQL.");
    expect(decisions).not.toContain("Write PRDs in British English.");
    const style = text(await ana.client.get("/settings/memory?type=&category=style"));
    expect(style).toContain("Write PRDs in British English.");
    expect(style).not.toContain("GraphQL");
    expect(text(await ana.client.get("/settings/memory?category=team"))).toContain("No memories match these filters");
    const bogus = await ana.client.get("/settings/memory?type=wish");
    expect(bogus.status).toBe(200);
    expect(text(bogus)).toContain("were not understood");
  });

  it("forgets a memory: then only listed with “Show forgotten”", async () => {
    const { memories } = (await ana.client.get("/api/memory?type=decision")).body;
    const { page } = await submit(ana.client, "/settings/memory?type=decision", { intent: "forget", id: memories[0].id });
    expect(text(page)).toContain("Forgotten: AI requests no longer use that memory.");
    expect(text(page)).not.toContain("The API is REST, not GraphQL.");
    const all = text(await ana.client.get("/settings/memory"));
    expect(all).not.toContain("GraphQL");
    const withForgotten = await ana.client.get("/settings/memory?active=false");
    expect(text(withForgotten)).toContain("The API is REST, not GraphQL.");
    expect(text(withForgotten)).toContain("Forgotten");
    expect(/<input[^>]*name="active"[^>]*>/.exec(withForgotten.text)?.[0]).toContain('checked=""');
    expect((await postForm(ana.client, "/settings/memory", { intent: "forget", id: memories[0].id })).status).toBe(404);
  });

  it("extracts memories from a pasted conversation with the offline drafter", async () => {
    const conversation = "User: We use Postgres and deploy on Fly.io. I prefer concise PRDs with bullet points.\nAssistant: Got it, I will keep that in mind.";
    const { page } = await submit(ana.client, "/settings/memory", { intent: "extract", conversation });
    const t = text(page);
    expect(t).toMatch(/Found (\d+), saved (\d+)/);
    const [, found, saved] = /Found (\d+), saved (\d+)/.exec(t)!;
    expect(Number(saved)).toBeGreaterThanOrEqual(1);
    expect(Number(found)).toBeGreaterThanOrEqual(Number(saved));
    expect(t).toContain("Extracted by the built-in offline drafter (rule-based, no AI).");
    const { memories } = (await ana.client.get("/api/memory?limit=50")).body;
    expect(memories.some((m: { content: string }) => /Postgres|Fly\.io|concise|bullet/i.test(m.content))).toBe(true);

    // The same conversation again: everything is already known.
    const again = await submit(ana.client, "/settings/memory", { intent: "extract", conversation });
    expect(text(again.page)).toMatch(/saved 0 \(\d+ (was|were) already known\)/);
  });

  it("asks for a conversation when the box is empty", async () => {
    const res = await postForm(ana.client, "/settings/memory", { intent: "extract", conversation: "  \n" });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="extract-conversation"[^>]*aria-invalid="true"/);
    expect(text(res)).toContain("conversation needs at least one message");
  });

  it("shares the per-user AI rate limit with POST /api/memory/extract", async () => {
    // Only requests that reach a provider count (the offline drafter is free): a platform key, answered by the stand-in.
    setEnv({ OPENAI_API_KEY: "sk-platform-memory-aaaaaaaaaaaaaa" });
    onTestFinished(() => setEnv({ OPENAI_API_KEY: undefined }));
    const busy = await signedUpClient({ name: "Busy Bee" }); // free plan: 10 AI requests a minute
    for (let i = 0; i < 10; i++) {
      const res = await busy.client.post("/api/memory/extract", { conversation: [{ role: "user", content: "Hello!" }] });
      expect(res.status, res.text).toBe(200);
    }
    const res = await postForm(busy.client, "/settings/memory", { intent: "extract", conversation: "User: We ship on Fridays." });
    expect(res.status).toBe(429);
    expect(text(res)).toContain("Too many AI requests");
    expect(text(res)).toContain("We ship on Fridays."); // the pasted text is kept
  });

  it("never lists another user's memories", async () => {
    const ben = await joinOrg(ana.organization.id, "admin", "Ben Neighbour");
    await submit(ben.client, "/settings/memory", { intent: "add", memoryType: "feedback", category: "process", content: "Ben's private feedback note." });
    const anaPage = text(await ana.client.get("/settings/memory?active=false&limit=200"));
    expect(anaPage).not.toContain("Ben's private feedback note.");
    const benPage = text(await ben.client.get("/settings/memory?active=false"));
    expect(benPage).toContain("Ben's private feedback note.");
    expect(benPage).not.toContain("British English");
    // Ben cannot forget Ana's memory through the form.
    const { memories } = (await ana.client.get("/api/memory")).body;
    expect((await postForm(ben.client, "/settings/memory", { intent: "forget", id: memories[0].id })).status).toBe(404);
    expect((await ana.client.get("/api/memory")).body.memories).toHaveLength(memories.length);
  });
});
