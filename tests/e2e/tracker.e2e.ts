import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sign } from "@octokit/webhooks-methods";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGithubMock, GOOD_TOKEN } from "../mocks/github";
import { serveHandlers } from "../support/msw-loopback";
import { launch } from "./browser";
import { Session, type ServerProcess, signedInPage, startServer } from "./server-process";

/**
 * From PRD to delivery in a browser (docs/trackers.md): derive user stories,
 * send them to a GitHub stand-in with a preview first, then see their state
 * change on the project when the stand-in's signed webhook fires. GitHub is
 * the msw stand-in the API tests use, served on a loopback socket.
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
`;

const github = createGithubMock();
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
  stub = await serveHandlers(github.handlers, "https://github.test");
  [server, browser] = await Promise.all([startServer(dataDir, { GITHUB_API_URL: `${stub.url}/api/v3` }), launch()]);
  session = new Session(server.baseUrl, "10.81.0.1");
  await session.register(`tracker-${Date.now()}@example.com`, "Tracker-Pass-7");
  connection = (await ok(session.call("POST", "/api/integrations/trackers", { service: "github", token: GOOD_TOKEN }), "connect")).connection;
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
  it("derives stories, previews and sends them to GitHub, and shows their state when GitHub's webhook fires", async () => {
    const { context, page, errors } = await signedInPage(browser, session);

    // Derive the stories with the offline drafter, then follow the result's link.
    await page.goto(`/projects/${projectId}/ai/documents`);
    await page.getByRole("region", { name: "User stories" }).getByRole("button", { name: "Write user stories" }).click();
    const send = page.getByRole("link", { name: "Send these stories to a tracker" });
    await send.first().waitFor({ timeout: 30_000 });
    await send.first().click();
    await page.getByRole("heading", { name: "Send user stories to a tracker" }).waitFor();

    // Preview: nothing is sent yet.
    await page.getByLabel("Repository (owner/name)").fill("acme/app");
    await page.getByRole("button", { name: "Preview the issues" }).click();
    await page.getByRole("heading", { name: /^Preview: acme\/app/ }).waitFor();
    expect(github.calls).toHaveLength(0);
    const sendButton = page.getByRole("button", { name: /^Send \d+ stor(y|ies) to acme\/app$/ });
    const count = Number(/Send (\d+)/.exec((await sendButton.textContent()) ?? "")?.[1]);
    expect(count).toBeGreaterThanOrEqual(3);

    await sendButton.click();
    const linked = page.getByRole("region", { name: "Linked issues" });
    await expect.poll(() => linked.getByText("Open", { exact: true }).count(), { timeout: 20_000 }).toBe(count);
    expect(github.issues).toHaveLength(count);
    expect(github.issues[0]!.body).toContain(`/projects/${projectId}`);

    // GitHub closes one issue and labels another: the project shows it.
    await fire("closed", 1);
    await fire("labeled", 2);
    await page.reload();
    await expect.poll(() => linked.getByText("Done", { exact: true }).count()).toBe(1);
    expect(await linked.getByText("In progress", { exact: true }).count()).toBe(1);
    expect(await page.getByText(`1 of ${count} stories done`).count()).toBeGreaterThan(0);

    // Sending again updates the same issues; none is duplicated.
    await page.getByLabel("Repository (owner/name)").fill("acme/app");
    await page.getByRole("button", { name: "Preview the issues" }).click();
    await page.getByRole("button", { name: /^Send \d+ stor(y|ies) to acme\/app$/ }).click();
    await expect.poll(() => github.calls.filter((c) => c.method === "PATCH").length, { timeout: 20_000 }).toBe(count);
    expect(github.issues).toHaveLength(count);

    // The project's document page shows the delivery line.
    await page.goto(`/projects/${projectId}`);
    expect(await page.getByText(`Delivery: 1 of ${count} stories done`).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
