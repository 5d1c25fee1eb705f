import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sign } from "@octokit/webhooks-methods";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGithubMock } from "../mocks/github";
import { createTrackerOAuthMock, TRACKER_OAUTH_CLIENTS } from "../mocks/tracker-oauth";
import { serveHandlers } from "../support/msw-loopback";
import { launch } from "./browser";
import { playOAuthConsent } from "./oauth-consent";
import { Session, type ServerProcess, signedInPage, startServer } from "./server-process";

/**
 * From PRD to delivery in a browser (docs/trackers.md): connect GitHub with
 * OAuth, derive user stories, pick three of them in the preview and send them
 * to a GitHub stand-in, then see their state change on the project when the
 * stand-in's signed webhook fires, or on "Refresh states" when no webhook
 * comes; and send stories selected in the PRD editor. GitHub (its OAuth
 * token endpoint and REST API) is the msw stand-in the API tests use, served
 * on a loopback socket; GitHub's consent screen is played by
 * ./oauth-consent.ts.
 */

const PRD = `# Expense reports

## Problem
Employees keep paper receipts for weeks and lose a third of them.

## Goals
- Reports filed within 3 days of a trip.

## Requirements
- Employees photograph a receipt and the amount is read.
- Employees attach receipts to a report.
- Managers approve a report from their phone.

## User stories

### Export a report as PDF
As an employee, I want to export a report as PDF, so that I can file it.

- Given a report, when I export it, then a PDF downloads.

### Remind me of missing receipts
As an employee, I want a reminder of missing receipts, so that my report is complete.
`;

const oauth = createTrackerOAuthMock();
const github = createGithubMock({ accepts: (token) => oauth.accepts("github", token) });
let stub: Awaited<ReturnType<typeof serveHandlers>>;
let server: ServerProcess;
let browser: Browser;
let dataDir: string;
let session: Session;
let projectId: string;
let connection: { id: string; webhookUrl: string; webhookSecret: string };

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-tracker-"));
  stub = await serveHandlers([...oauth.handlers, ...github.handlers], "https://github.test");
  [server, browser] = await Promise.all([
    startServer(dataDir, {
      GITHUB_API_URL: `${stub.url}/api/v3`,
      GITHUB_OAUTH_URL: stub.url,
      GITHUB_CLIENT_ID: TRACKER_OAUTH_CLIENTS.github.id,
      GITHUB_CLIENT_SECRET: TRACKER_OAUTH_CLIENTS.github.secret,
    }),
    launch(),
  ]);
  session = new Session(server.baseUrl, "10.81.0.1");
  await session.register(`tracker-${Date.now()}@example.com`, "Tracker-Pass-7");
  projectId = (await ok(session.call("POST", "/api/projects", { name: "Expense reports" }), "project")).id;
  await ok(session.call("POST", `/api/projects/${projectId}/prd`, { content: PRD }), "prd");
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stub?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** GitHub's "issues" webhook for one issue, signed with the connection's secret as GitHub signs it. */
async function fire(action: "closed" | "labeled", issueNumber: number) {
  const issue = github.issues.find((i) => i.number === issueNumber)!;
  if (action === "closed") issue.state = "closed";
  else issue.labels.push("in progress");
  const body = JSON.stringify({ action, issue: github.shape(issue), repository: { full_name: issue.repo } });
  const res = await fetch(connection.webhookUrl.replace(/^https?:\/\/[^/]+/, server.baseUrl), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-GitHub-Event": "issues",
      "X-GitHub-Delivery": crypto.randomUUID(),
      "X-Hub-Signature-256": await sign(connection.webhookSecret, body),
    },
    body,
  });
  expect(res.status, await res.text()).toBeLessThan(300);
}

describe("sending stories to a tracker", () => {
  it("connects GitHub with OAuth, sends three picked stories, and shows their state when GitHub's webhook fires", async () => {
    const { context, page, errors } = await signedInPage(browser, session);

    // Settings → Issue trackers → Connect with GitHub, approved on GitHub's consent screen.
    const consents = await playOAuthConsent(context, {
      formPath: "/settings/trackers",
      authorizeUrl: `${stub.url}/login/oauth/authorize`,
      approve: (url) => oauth.authorize("github", url.replace(stub.url, "https://github.test")),
    });
    await page.goto("/settings/trackers");
    await page.getByRole("button", { name: "Connect with GitHub" }).click();
    await page.getByText("Connected GitHub as octocat").first().waitFor();
    expect(consents()).toBe(1);
    expect(await page.getByText("Connected with OAuth").count()).toBe(1);
    connection = (await ok(session.call("GET", "/api/integrations/trackers"), "connections")).connections[0];

    // Derive the stories with the offline drafter, then follow the result's link.
    await page.goto(`/projects/${projectId}/ai/documents`);
    await page.getByRole("region", { name: "User stories" }).getByRole("button", { name: "Write user stories" }).click();
    const send = page.getByRole("link", { name: "Send these stories to a tracker" });
    await send.first().waitFor({ timeout: 30_000 });
    await send.first().click();
    await page.getByRole("heading", { name: "Send user stories to a tracker" }).waitFor();

    // Preview: nothing is sent yet. Keep three stories checked.
    await page.getByLabel("Repository (owner/name)").fill("acme/app");
    await page.getByRole("button", { name: "Preview the issues" }).click();
    await page.getByRole("heading", { name: /^Preview: acme\/app/ }).waitFor();
    expect(github.calls).toHaveLength(0);
    const picks = page.getByRole("group", { name: "Stories to send" }).getByRole("checkbox");
    const total = await picks.count();
    expect(total).toBeGreaterThan(3);
    for (let i = 3; i < total; i++) await picks.nth(i).uncheck();
    const sendButton = page.getByRole("button", { name: "Send 3 stories to acme/app" });
    await sendButton.click();

    const linked = page.getByRole("region", { name: "Linked issues" });
    await expect.poll(() => linked.getByText("Open", { exact: true }).count(), { timeout: 20_000 }).toBe(3);
    expect(github.issues).toHaveLength(3);
    expect(github.issues[0]!.body).toContain(`/projects/${projectId}`);

    // GitHub closes one issue and labels another: the project shows it.
    await fire("closed", 1);
    await fire("labeled", 2);
    await page.reload();
    await expect.poll(() => linked.getByText("Done", { exact: true }).count()).toBe(1);
    expect(await linked.getByText("In progress", { exact: true }).count()).toBe(1);
    expect(await page.getByText("1 of 3 stories done").count()).toBeGreaterThan(0);

    // Sending the same three again updates their issues; none is duplicated.
    await page.getByLabel("Repository (owner/name)").fill("acme/app");
    await page.getByRole("button", { name: "Preview the issues" }).click();
    for (let i = 3; i < total; i++) await picks.nth(i).uncheck();
    await page.getByRole("button", { name: "Send 3 stories to acme/app" }).click();
    await expect.poll(() => github.calls.filter((c) => c.method === "PATCH").length, { timeout: 20_000 }).toBe(3);
    expect(github.issues).toHaveLength(3);

    // GitHub closes the third issue, but its webhook never arrives (a server behind a firewall): refresh asks GitHub.
    github.issues.find((i) => i.number === 3)!.state = "closed";
    await page.getByRole("button", { name: "Refresh states from the trackers" }).click();
    await page.getByText("Refreshed 3 issues: 1 changed (acme/app#3 is now Done).").waitFor();
    expect(await linked.getByText("Done", { exact: true }).count()).toBe(2);

    // The project's document page shows the delivery line.
    await page.goto(`/projects/${projectId}`);
    expect(await page.getByText("Delivery: 2 of 3 stories done").count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("sends the stories selected in the PRD editor, previewed first", async () => {
    const { context, page, errors } = await signedInPage(browser, session);
    await page.goto(`/projects/${projectId}`);
    const editor = page.getByRole("textbox", { name: "PRD document" });
    await editor.waitFor();
    // Select from the "User stories" heading to the end of the document.
    await editor.getByRole("heading", { name: "User stories", exact: true }).click();
    await page.keyboard.press("Home");
    await page.keyboard.press("Shift+Control+End");
    await page.getByRole("toolbar", { name: "Selected text" }).getByRole("button", { name: "Send selected stories to tracker" }).click();

    // The tracker page opens with the selection previewed for the repository this project last used.
    await page.getByRole("heading", { name: /^Preview: acme\/app/ }).waitFor();
    const picks = page.getByRole("group", { name: "Stories to send" }).getByRole("checkbox");
    expect(await picks.count()).toBe(2);
    expect(await page.getByText("Export a report as PDF").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Send 2 stories to acme/app" }).click();
    await expect.poll(() => github.issues.length, { timeout: 20_000 }).toBe(5);
    expect(github.issues.slice(3).map((i) => i.title)).toEqual(["Export a report as PDF", "Remind me of missing receipts"]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
