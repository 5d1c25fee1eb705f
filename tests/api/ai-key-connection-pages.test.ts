import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAiMocks } from "../mocks/server";
import { startFakeOpenAI, type FakeOpenAI } from "../mocks/openai-server";
import { setEnv } from "../support/ai";
import { type ApiResult, ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { closedPort } from "../support/connection";
import { type Account, joinOrg, setPlan } from "../support/org";
import { parseHtml } from "../support/html";
import { pageText } from "../support/page";

/**
 * "Test connection" and verified saving on /settings/ai, and the first-run
 * card on /home, driven like a browser without JavaScript: form posts,
 * redirects, then the page again.
 */

const ai = useAiMocks();
const GOOD = "sk-page-good-key-0123456789abcdef-7788";
const BAD = "sk-page-bad-key-fedcba9876543210-6655";
const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const text = (res: ApiResult) => pageText(res).replace(/ ([).,:])/g, "$1");
/** The status row right under a key's row (or a server provider's), as a reader finds it next to the key. */
function statusBeside(res: ApiResult, rowId: string) {
  const doc = parseHtml(res.text);
  const status = doc.getElementById(`key-status-${rowId}`);
  return { status, row: status?.closest("tr")?.previousElementSibling ?? null, text: status?.textContent?.replace(/\s+/g, " ") ?? "" };
}

/** A form post that succeeds redirects; the page it leads to shows the flash. */
async function submit(client: TestClient, path: string, fields: Record<string, string>) {
  const res = await postForm(client, path, fields);
  expect(res.status, res.text.slice(0, 300)).toBe(302);
  return client.get(res.headers.get("Location")!);
}

let owner: Account;
let member: Account;
let local: FakeOpenAI;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Petra Pages" });
  member = await joinOrg(owner.organization.id, "member", "Pim Member");
  await setPlan(owner.organization.id, "enterprise");
  local = await startFakeOpenAI();
});
afterAll(() => local.close());

describe("saving a key on /settings/ai always tests it", () => {
  it("a key the provider rejects is not saved: the error is next to the key field", async () => {
    ai.openai.invalidKeys.add(BAD);
    const res = await postForm(member.client, "/settings/ai", { intent: "add-personal", provider: "provider_a", key: BAD, name: "Typo" });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="personal-key"[^>]*aria-invalid="true"/);
    expect(text(res)).toContain("OpenAI rejected this key (401). Check that it was copied whole and has not been revoked.");
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('value="Typo"');
    expect(res.text).not.toContain(BAD);
    expect((await member.client.get("/api/user/api-keys")).body.apiKeys).toEqual([]);
  });

  it("an accepted key is saved, and its row says it is connected", async () => {
    const res = await postForm(member.client, "/settings/ai", { intent: "add-personal", provider: "provider_a", key: GOOD });
    expect(res.status).toBe(302);
    const [key] = (await member.client.get("/api/user/api-keys")).body.apiKeys;
    expect(res.headers.get("Location")).toBe(`/settings/ai?saved=${key.id}#key-${key.id}`);
    const page = await member.client.get(res.headers.get("Location")!);
    const beside = statusBeside(page, key.id);
    expect(beside.text).toMatch(
      /^Your OpenAI key was saved\. Connected: OpenAI answered in \d+ ms — model gpt-4o-mini is available \(2 models listed\)\. It is encrypted and will not be shown again\.$/,
    );
    expect(beside.status?.getAttribute("role")).toBe("status");
    expect(beside.row?.id).toBe(`key-${key.id}`);
    expect(page.text).not.toContain(GOOD);
  });

  it("an unreachable provider does not block saving; the notice says so", async () => {
    const port = await closedPort();
    setEnv({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
    try {
      const page = await submit(owner.client, "/settings/ai", { intent: "add-org", provider: "provider_b", key: GOOD });
      expect(text(page)).toContain(
        `The organization's Anthropic key was saved, but the provider could not be reached: Could not reach http://127.0.0.1:${port} — is the server running? Members without a personal key now use it.`,
      );
      expect((await owner.client.get("/api/organization/ai-keys")).body.apiKeys).toHaveLength(1);
    } finally {
      setEnv({ ANTHROPIC_BASE_URL: undefined });
    }
  });
});

describe("Test connection buttons", () => {
  it("each saved key has one; the result is announced on the page", async () => {
    const page = await member.client.get("/settings/ai");
    expect(page.text).toContain('aria-label="Test connection of OpenAI key"');
    const [key] = (await member.client.get("/api/user/api-keys")).body.apiKeys;
    const res = await postForm(member.client, "/settings/ai", { intent: "test-personal", keyId: key.id });
    expect(res.status).toBe(200);
    const beside = statusBeside(res, key.id);
    expect(beside.text).toMatch(/^Connected: OpenAI answered in \d+ ms — model gpt-4o-mini is available \(2 models listed\)\.$/);
    expect(beside.status?.getAttribute("role")).toBe("status");
    expect(beside.row?.id).toBe(`key-${key.id}`);
    const button = parseHtml(res.text).querySelector('button[aria-label="Test connection of OpenAI key"]');
    expect(button?.getAttribute("aria-describedby")).toBe(`key-status-${key.id}`);
  });

  it("a key the provider has since revoked: the failure is an alert", async () => {
    ai.openai.invalidKeys.add(GOOD);
    const [key] = (await member.client.get("/api/user/api-keys")).body.apiKeys;
    const res = await postForm(member.client, "/settings/ai", { intent: "test-personal", keyId: key.id });
    expect(res.status).toBe(200);
    const beside = statusBeside(res, key.id);
    expect(beside.text).toBe("Not connected: OpenAI rejected this key (401). Check that it was copied whole and has not been revoked.");
    expect(beside.status?.getAttribute("role")).toBe("alert");
    expect(res.text).not.toContain(GOOD);
  });

  it("another user's key id is not found", async () => {
    const [key] = (await member.client.get("/api/user/api-keys")).body.apiKeys;
    const res = await postForm(owner.client, "/settings/ai", { intent: "test-personal", keyId: key.id });
    expect(res.status).toBe(404);
    expect(text(res)).toContain("AI provider key not found");
  });

  it("admins see and test the server's providers by where they live, never a key; members do not", async () => {
    setEnv({ OPENAI_BASE_URL: `${local.url}/v1`, OPENAI_MODEL: "fake-model", OPENAI_API_KEY: "sk-platform-secret-000000000000000" });
    try {
      const page = await owner.client.get("/settings/ai");
      const t = text(page);
      expect(t).toContain("This server's providers");
      expect(t).toContain(`Local server at ${new URL(local.url).host}`);
      expect(page.text).not.toContain("sk-platform-secret");
      expect(text(await member.client.get("/settings/ai"))).not.toContain("This server's providers");

      const res = await postForm(owner.client, "/settings/ai", { intent: "test-platform", provider: "provider_a" });
      expect(res.status).toBe(200);
      expect(statusBeside(res, "provider_a").text).toMatch(/^Connected: OpenAI answered in \d+ ms — model fake-model is available/);
      expect(res.text).not.toContain("sk-platform-secret");
      expect((await postForm(member.client, "/settings/ai", { intent: "test-platform", provider: "provider_a" })).status).toBe(403);
    } finally {
      setEnv({ OPENAI_BASE_URL: undefined, OPENAI_MODEL: undefined, OPENAI_API_KEY: undefined });
    }
  });
});

describe("first-run card on /home", () => {
  const CARD = "You're using the offline drafter — it works without a key and keeps your words, but a provider writes better.";

  it("shows for someone only the offline drafter answers, links to the settings, and stays dismissed", async () => {
    const fresh = await signedUpClient({ name: "Fay First" });
    const home = await fresh.client.get("/home");
    expect(text(home)).toContain(CARD);
    expect(text(home)).toContain("Add an OpenAI, Anthropic or Google key, or point the app at a local server (Ollama, llama.cpp).");
    expect(home.text).toMatch(/<a[^>]*href="\/settings\/ai"[^>]*>Connect an AI provider<\/a>/);

    const after = await submit(fresh.client, "/home", { intent: "dismiss-ai-prompt" });
    expect(text(after)).not.toContain(CARD);
    expect(text(await fresh.client.get("/home"))).not.toContain(CARD);
  });

  it("a dismissal is the dismisser's: another account in the same browser still sees its card", async () => {
    const fresh = await signedUpClient({ name: "Gus Guest" });
    await submit(fresh.client, "/home", { intent: "dismiss-ai-prompt" });
    const other = await signedUpClient({ name: "Hal Other" });
    other.client.jar.set("ai_prompt_dismissed", fresh.client.jar.get("ai_prompt_dismissed")!);
    expect(text(await other.client.get("/home"))).toContain(CARD);
  });

  it("does not show once a key answers: personal, or the organization's", async () => {
    expect(text(await member.client.get("/home"))).not.toContain(CARD);
    const teammate = await joinOrg(owner.organization.id, "member", "Tia Teammate");
    expect(text(await teammate.client.get("/home"))).not.toContain(CARD);
  });
});
