import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackMock, SLACK_CLIENT } from "../mocks/slack";
import { serveHandlers } from "../support/msw-loopback";
import { launch } from "./browser";
import { playOAuthConsent } from "./oauth-consent";
import { Session, type ServerProcess, signedInPage, startServer } from "./server-process";

/**
 * Slack in a browser (docs/integrations.md, "Slack"): an admin connects a
 * workspace through Slack's OAuth consent, routes review requests to one
 * channel and a project to its own, then a review request and a status
 * change made on the pages post one message each, with a link back. The Web
 * API is the msw stand-in the API tests use, served on a loopback socket;
 * Slack's consent screen is played by ./oauth-consent.ts.
 */

const slack = createSlackMock();
let stub: Awaited<ReturnType<typeof serveHandlers>>;
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

/** The messages posted to a channel, waited for (they go through the job queue). */
async function postedTo(channelId: string, count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = slack.state.posted.filter((p) => p.channel === channelId);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const channelId = (name: string) => slack.state.channels.find((c) => c.name === name)!.id;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-slack-"));
  stub = await serveHandlers(slack.handlers, "https://slack.test");
  [server, browser] = await Promise.all([
    startServer(dataDir, { SLACK_CLIENT_ID: SLACK_CLIENT.id, SLACK_CLIENT_SECRET: SLACK_CLIENT.secret, SLACK_API_URL: `${stub.url}/api/` }),
    launch(),
  ]);
  session = new Session(server.baseUrl, "10.82.0.1");
  await session.register(`slack-${Date.now()}@example.com`, "Slack-Pass-77");
  projectId = (await ok(session.call("POST", "/api/projects", { name: "Expense reports" }), "project")).id;
  await ok(session.call("POST", `/api/projects/${projectId}/prd`, { content: "# Expense reports\n\n## Problem\nReceipts get lost.\n" }), "prd");
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stub?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("Slack", () => {
  it("connects a workspace, routes channels, and posts a review request and a status change with links", async () => {
    const { context, page, errors } = await signedInPage(browser, session);
    // Slack's consent screen, answered as a person clicking "Allow" would.
    const consents = await playOAuthConsent(context, {
      formPath: "/settings/slack",
      authorizeUrl: "https://slack.com/oauth/v2/authorize",
      approve: (url) => slack.authorize(url),
    });

    await page.goto("/settings/slack");
    await expect(page.getByTestId("slack-status").textContent()).resolves.toMatch(/Not connected/);
    await page.getByRole("button", { name: "Connect Slack" }).click();
    await page.getByTestId("slack-status").filter({ hasText: "Acme Workspace 1" }).waitFor();
    await expect(page.getByTestId("slack-status").textContent()).resolves.toMatch(/Connected\s+Workspace Acme Workspace 1/);
    expect(consents()).toBe(1);

    // Review requests to #reviews, everything else to #product.
    await page.getByLabel("Default channel").selectOption({ label: "#product" });
    await page.getByLabel("Review requests").selectOption({ label: "#reviews" });
    await page.getByRole("button", { name: "Save channels" }).click();
    await page.getByRole("status").filter({ hasText: /saved/i }).first().waitFor();
    await page.reload();
    await expect(page.getByLabel("Review requests").inputValue()).resolves.toBe(channelId("reviews"));

    // A review request made on the project's Sharing page lands in #reviews, with a link to the request.
    await page.goto(`/projects/${projectId}/sharing`);
    await page.getByLabel("What to review").fill("Finance sign-off");
    await page.getByLabel("Reviewer's name").fill("Dana Lee");
    await page.getByRole("button", { name: "Request review" }).click();
    const reviews = await postedTo(channelId("reviews"), 1);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.text).toContain("Finance sign-off");
    expect(JSON.stringify(reviews[0]!.blocks)).toContain(`${server.baseUrl}/projects/${projectId}/sharing`);

    // The project's own channel wins for its messages: a status change goes to #design only.
    await page.goto(`/projects/${projectId}/settings`);
    await page.getByRole("combobox", { name: "Slack channel", exact: true }).selectOption({ label: "#design" });
    await page.getByRole("button", { name: "Save Slack channel" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /saved|Slack/i })
      .first()
      .waitFor();
    await page.goto(`/projects/${projectId}`);
    await page.getByLabel("Status").selectOption({ label: "In review" });
    await page.getByRole("button", { name: "Set status" }).click();
    const design = await postedTo(channelId("design"), 1);
    expect(design).toHaveLength(1);
    expect(design[0]!.text).toMatch(/Expense reports.*moved to In review/);
    expect(JSON.stringify(design[0]!.blocks)).toContain(`${server.baseUrl}/projects/${projectId}`);
    // Exactly one message per event: nothing else went to the default channel or twice anywhere.
    await new Promise((r) => setTimeout(r, 1000));
    expect(slack.state.posted.filter((p) => p.channel === channelId("product"))).toHaveLength(0);
    expect(slack.state.posted).toHaveLength(2);

    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
