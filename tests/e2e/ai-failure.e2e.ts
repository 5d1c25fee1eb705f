import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../mocks/openai-server";
import { launch } from "./browser";
import { Session, type ServerProcess, signedInPage, startServer } from "./server-process";

/**
 * A failed AI run with JavaScript on (docs/ai.md, "When a run fails"): the
 * error appears under the button that started it, the last good result stays
 * on the page and says so, and "Try again" re-runs the stream in place. The
 * provider is a loopback OpenAI-compatible server that answers OpenAI's own
 * error (503, with its body and request id) while `failing` is set.
 */

let openai: FakeOpenAI;
let server: ServerProcess;
let browser: Browser;
let dataDir: string;
let session: Session;
let projectId: string;

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-ai-failure-"));
  openai = await startFakeOpenAI({ chunks: 4 });
  [server, browser] = await Promise.all([startServer(dataDir, { OPENAI_BASE_URL: `${openai.url}/v1` }), launch()]);
  session = new Session(server.baseUrl, "10.79.0.1");
  await session.register(`failure-${Date.now()}@example.com`, "Failure-Pass-7");
  await ok(session.call("POST", "/api/organization/ai-keys", { provider: "provider_a", key: "sk-failure-0123456789abcdef" }), "key");
  projectId = (await ok(session.call("POST", "/api/projects", { name: "Pantry planner" }), "project")).id;
  await ok(
    session.call("POST", `/api/projects/${projectId}/prd`, { content: "# Pantry planner\n\n## Problem\nFamilies throw away 20% of the food they buy.\n" }),
    "prd",
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await openai?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a failed AI run, JavaScript on", () => {
  it("shows the error under its button, keeps the last good result, and Try again streams a new one", async () => {
    const { context, page, errors } = await signedInPage(browser, session);
    await page.goto(`/projects/${projectId}/ai/documents`);
    const stories = page.getByRole("region", { name: "User stories" });
    const run = stories.getByRole("button", { name: "Write user stories" });
    const saved = page.getByRole("region", { name: /Saved/ });

    // A good run first: its result is saved and listed.
    await run.click();
    await expect.poll(() => saved.getByText("Echo:").count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const before = await openai.requests.length;

    // The provider fails: the error is under the button, which points at it; the good result stays.
    openai.failing = 503;
    await run.click();
    const alert = stories.getByRole("alert");
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/OpenAI|provider/i);
    const describedBy = (await run.getAttribute("aria-describedby")) ?? "";
    expect(describedBy).toContain((await alert.getAttribute("id")) ?? "no id");
    expect(await saved.getByText("Echo:").count()).toBeGreaterThan(0);
    expect(await page.getByText("Last good result").count()).toBeGreaterThan(0);
    expect(openai.requests.length).toBeGreaterThan(before);

    // Recovered: Try again streams a new result in place and the error goes.
    openai.failing = null;
    const resultsBefore = await saved.getByText("Echo:").count();
    await alert.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => saved.getByText("Echo:").count(), { timeout: 20_000 }).toBeGreaterThan(resultsBefore);
    await expect.poll(() => stories.getByRole("alert").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
