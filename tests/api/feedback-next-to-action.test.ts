import { beforeAll, describe, expect, it } from "vitest";
import { runFailureWords } from "~/components/ai/run-error";
import { useAiMocks } from "../mocks/server";
import { type ApiResult, ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { type Account, setPlan } from "../support/org";
import { pageText } from "../support/page";

/**
 * Feedback next to the action (docs/ai.md, "When a run fails"): a failed AI
 * run is reported under the button that started it, the last good result
 * stays on the page and says so, and "Try again" re-runs it with the same
 * inputs; a saved provider key's test result is shown beside the key.
 * Driven like a browser without JavaScript, against the provider stand-ins.
 */

const ai = useAiMocks();
const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const PRD = "# Pantry planner\n\n## Problem\nFamilies throw away 20% of the food they buy.\n\n## Goals\nCut waste to 10% in six months.\n";

/** The failed run's error, the button it describes, and the hidden inputs of its "Try again" form. */
function runError(res: ApiResult, intent: string) {
  const doc = parseHtml(res.text);
  const error = doc.getElementById(`run-error-${intent}`);
  const retry = error?.querySelector("form");
  const fields = Object.fromEntries(
    [...(retry?.querySelectorAll("input[type=hidden]") ?? [])].map((i) => [i.getAttribute("name")!, i.getAttribute("value") ?? ""]),
  );
  return {
    doc,
    error,
    text: error?.textContent?.replace(/\s+/g, " ").trim() ?? "",
    describes: [...doc.querySelectorAll(`[aria-describedby~="run-error-${intent}"]`)],
    retryButton: retry?.querySelector("button")?.textContent ?? null,
    fields,
  };
}

let owner: Account;
let projectId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Fenna Feedback" });
  await setPlan(owner.organization.id, "enterprise");
  // A personal OpenAI key (saved through the API, unverified): AI runs go to the OpenAI stand-in.
  const key = await owner.client.post("/api/user/api-keys", { provider: "provider_a", key: "sk-feedback-0123456789abcdef0123" });
  expect(key.status, key.text).toBe(201);
  const project = await owner.client.post("/api/projects", { name: "Pantry planner" });
  projectId = project.body.id;
  expect((await owner.client.post(`/api/projects/${projectId}/prd`, { content: PRD })).status).toBeLessThan(300);
});

describe("a failed AI tool run, without JavaScript", () => {
  it("shows the error under the button that started it, keeps the last good result, and Try again re-runs it", async () => {
    const page = `/projects/${projectId}/ai/documents`;
    ai.openai.queue({ kind: "text", chunks: ["## Epic: Shopping\n", "As a parent I want a list so that I buy less."] });
    const first = await postForm(owner.client, page, { intent: "user_stories", source: "feature" });
    expect(first.status, first.text.slice(0, 300)).toBe(302);

    ai.openai.queue({ kind: "http_error", status: 500, message: "The server had an error while processing your request." });
    const failed = await postForm(owner.client, page, { intent: "user_stories", source: "feature" });
    expect(failed.status).toBe(502);
    const run = runError(failed, "user_stories");
    expect(run.error?.getAttribute("role")).toBe("alert");
    expect(run.text).toMatch(/^OpenAI answered with an error \(500\)/);
    expect(run.text).toMatch(/Your last good result, from .+, is kept: see it on this page\./);
    // Beside its own control: inside the user stories section, described by the button that ran it.
    expect(run.error?.closest("section")?.getAttribute("aria-labelledby")).toBe("stories-heading");
    expect(run.describes.map((b) => b.textContent)).toEqual(["Write user stories"]);
    // The other tools on the page say nothing.
    expect(run.doc.querySelectorAll('[data-testid="run-error"]')).toHaveLength(1);
    // The previous result is still shown, marked as the last good one.
    const outputs = run.doc.querySelectorAll('[data-testid="ai-output"]');
    expect(outputs).toHaveLength(1);
    expect(outputs[0]!.textContent).toContain("As a parent I want a list so that I buy less.");
    expect(outputs[0]!.querySelector('[data-testid="last-good"]')?.textContent).toMatch(
      /^Last good result from .+\. The newer run failed, so this one is kept\.$/,
    );
    expect(run.error?.querySelector("a")?.getAttribute("href")).toBe(`#${outputs[0]!.id}`);

    // Try again posts the same inputs and succeeds this time.
    expect(run.retryButton).toBe("Try again");
    expect(run.fields).toEqual({ intent: "user_stories", source: "feature" });
    ai.openai.queue({ kind: "text", chunks: ["## Epic: Cooking\n", "As a cook I want recipes from leftovers."] });
    const retried = await postForm(owner.client, page, run.fields);
    expect(retried.status).toBe(302);
    const after = await owner.client.get(retried.headers.get("Location")!);
    const doc = parseHtml(after.text);
    expect(doc.querySelector('[data-testid="run-error"]')).toBeNull();
    expect(doc.querySelector('[data-testid="last-good"]')).toBeNull();
    expect([...doc.querySelectorAll('[data-testid="ai-output"]')].map((o) => o.textContent)).toEqual([
      expect.stringContaining("As a cook I want recipes from leftovers."),
      expect.stringContaining("As a parent I want a list so that I buy less."),
    ]);
  });

  it("the roadmap: a provider's rate limit is said under Build the roadmap, the latest roadmap stays", async () => {
    const page = `/projects/${projectId}/ai/roadmap`;
    expect((await postForm(owner.client, page, { intent: "roadmap", teamSize: "small", methodology: "kanban" })).status).toBe(302);
    ai.openai.queue({ kind: "http_error", status: 429, retryAfterSeconds: 1, message: "Rate limit reached for gpt-4o-mini" });
    const failed = await postForm(owner.client, page, { intent: "roadmap", teamSize: "small", methodology: "kanban" });
    expect(failed.status).toBe(502);
    const run = runError(failed, "roadmap");
    expect(run.text).toMatch(/^OpenAI is rate-limiting requests \(429\)/);
    expect(run.describes.map((b) => b.textContent)).toEqual(["Build the roadmap"]);
    expect(run.error?.closest("section")?.getAttribute("aria-labelledby")).toBe("roadmap-form-heading");
    const latest = run.doc.getElementById("latest-roadmap");
    expect(latest?.querySelector('[data-testid="last-good"]')).not.toBeNull();
    // The failed choices are kept in the form and in Try again.
    expect(run.doc.querySelector<HTMLSelectElement>("#roadmap-method option[selected]")?.value).toBe("kanban");
    expect(run.fields).toEqual({ intent: "roadmap", teamSize: "small", methodology: "kanban" });
    const retried = await postForm(owner.client, page, run.fields);
    expect(retried.status).toBe(302);
    const roadmaps = (await owner.client.get(`/api/projects/${projectId}/ai-outputs?kind=roadmap`)).body.outputs;
    expect(roadmaps).toHaveLength(2);
  });

  it("suggestions: the error is under Get suggestions, not at the top of the page", async () => {
    ai.openai.queue({ kind: "http_error", status: 503 });
    const failed = await postForm(owner.client, `/projects/${projectId}/ai?index`, { intent: "suggestions" });
    expect(failed.status).toBe(502);
    const run = runError(failed, "suggestions");
    expect(run.error?.closest("section")?.getAttribute("aria-labelledby")).toBe("suggestions-heading");
    expect(run.describes.map((b) => b.textContent)).toEqual(["Get suggestions"]);
    expect(run.fields).toEqual({ intent: "suggestions" });
    const retried = await postForm(owner.client, `/projects/${projectId}/ai?index`, run.fields);
    expect(retried.status).toBe(200);
    expect(parseHtml(retried.text).querySelector('[data-testid="suggestions"]')).not.toBeNull();
  });

  it("PRD generation in the builder: the error is under Regenerate PRD, the current PRD is kept, Try again generates it", async () => {
    const page = `/projects/${projectId}/builder`;
    ai.openai.queue({ kind: "http_error", status: 500 });
    const failed = await postForm(owner.client, page, { intent: "generate", regenerate: "true", style: "lean" });
    expect(failed.status).toBe(502);
    const run = runError(failed, "generate");
    expect(run.error?.closest("section")?.getAttribute("aria-labelledby")).toBe("generate-heading");
    expect(run.describes.map((b) => b.textContent)).toEqual(["Regenerate PRD"]);
    expect(run.text).toMatch(/The current PRD \(version 1\), from .+, is kept: open it\./);
    expect(run.error?.querySelector("a")?.getAttribute("href")).toBe(`/projects/${projectId}`);
    expect(run.fields).toEqual({ intent: "generate", regenerate: "true", style: "lean" });
    expect((await owner.client.get(`/api/projects/${projectId}/prd`)).body.prd.content).toBe(PRD);

    const retried = await postForm(owner.client, page, run.fields);
    expect(retried.status).toBe(302);
    expect(retried.headers.get("Location")).toBe(`/projects/${projectId}`);
    const versions = (await owner.client.get(`/api/projects/${projectId}/prd/versions`)).body.versions;
    expect(versions).toHaveLength(2);
  });

  it("another organization cannot run the tools of this project, nor see its results", async () => {
    const outsider = await signedUpClient({ name: "Otto Outsider" });
    const res = await postForm(outsider.client, `/projects/${projectId}/ai/documents`, { intent: "user_stories", source: "prd" });
    expect(res.status).toBe(404);
    expect(pageText(res)).not.toContain("As a parent");
    expect((await outsider.client.get(`/projects/${projectId}/ai/documents`)).status).toBe(404);
  });
});

describe("a streamed run's failure in plain words (with JavaScript)", () => {
  it("offline, too many requests, the month's allowance, a provider failure", () => {
    expect(runFailureWords("Failed to fetch", { status: null, code: null, retryAfter: null, metric: null })).toBe(
      "PRD Studio could not be reached (Failed to fetch). Check your connection — you may be offline — then try again.",
    );
    expect(runFailureWords("Too many AI requests; try again in 12 s", { status: 429, code: "RATE_LIMITED", retryAfter: 12, metric: null })).toBe(
      "Too many AI requests right now. Try again in 12 seconds.",
    );
    expect(runFailureWords("Limit reached", { status: 403, code: "LIMIT_REACHED", retryAfter: null, metric: "ai_tokens" })).toMatch(
      /^Your organization has used this month's AI allowance on its plan\./,
    );
    expect(runFailureWords("OpenAI answered with an error (500)", { status: 200, code: "GENERATION_ERROR", retryAfter: null, metric: null })).toBe(
      "The AI provider could not answer: OpenAI answered with an error (500)",
    );
  });
});

describe("saving an AI provider key tests it, and says so beside the key", () => {
  const GOOD = "sk-feedback-good-0123456789abcdef-1122";
  const BAD = "sk-feedback-bad-fedcba9876543210-3344";

  it("a key the provider refuses: the refusal is under the key field, and nothing is saved", async () => {
    ai.anthropic.invalidKeys.add(BAD);
    const res = await postForm(owner.client, "/settings/ai", { intent: "add-org", provider: "provider_b", key: BAD });
    expect(res.status).toBe(400);
    const doc = parseHtml(res.text);
    const field = doc.getElementById("org-key")!;
    expect(field.getAttribute("aria-invalid")).toBe("true");
    const error = doc.getElementById("org-key-error");
    expect(field.getAttribute("aria-describedby")).toContain("org-key-error");
    expect(error?.textContent).toBe("Anthropic rejected this key (401). Check that it was copied whole and has not been revoked.");
    expect(res.text).not.toContain(BAD);
    expect((await owner.client.get("/api/organization/ai-keys")).body.apiKeys).toEqual([]);
  });

  it("a good key: its row says Connected, with the provider's answer time, right under the key", async () => {
    const res = await postForm(owner.client, "/settings/ai", { intent: "add-org", provider: "provider_c", key: GOOD });
    expect(res.status).toBe(302);
    const [key] = (await owner.client.get("/api/organization/ai-keys")).body.apiKeys;
    const page = await owner.client.get(res.headers.get("Location")!);
    const doc = parseHtml(page.text);
    const status = doc.getElementById(`key-status-${key.id}`)!;
    expect(status.getAttribute("role")).toBe("status");
    expect(status.textContent).toMatch(
      /^The organization's Google Gemini key was saved\. Connected: Google Gemini answered in \d+ ms — .+\. Members without a personal key now use it\.$/,
    );
    expect(status.closest("tr")?.previousElementSibling?.id).toBe(`key-${key.id}`);
    // Not also at the top of the page.
    expect([...doc.querySelectorAll(".alert")].map((a) => a.textContent).join(" ")).not.toContain("key was saved");
    expect(page.text).not.toContain(GOOD);
  });

  it("another organization cannot test this organization's key", async () => {
    const [key] = (await owner.client.get("/api/organization/ai-keys")).body.apiKeys;
    const outsider = await signedUpClient({ name: "Ola Outsider" });
    const res = await postForm(outsider.client, "/settings/ai", { intent: "test-org", keyId: key.id });
    expect(res.status).toBe(404);
    expect(parseHtml(res.text).getElementById(`key-status-${key.id}`)).toBeNull();
    expect(pageText(res)).not.toContain("Connected");
  });
});
