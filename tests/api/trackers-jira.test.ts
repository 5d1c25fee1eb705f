import { savedUserStories, useTrackerStandIn } from "../support/trackers";
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { createJiraMock, JIRA_EMAIL, JIRA_SITE, JIRA_TOKEN } from "../mocks/jira";
import { type Account, expectError } from "../support/org";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { projectWithPrd } from "../support/integrations";

/** Issue-tracker sync with Jira Cloud (docs/trackers.md): site check, connect, preview, send, re-send, rate limits, signed webhooks, access. */

const jira = createJiraMock();
const { server, waits } = useTrackerStandIn({ JIRA_ALLOWED_HOSTS: "jira.test" }, jira.handlers);
const requests: string[] = [];

const STORIES = `# User Stories: Expenses

## Receipts

### Story 1: Snap a receipt
As an employee, I want to photograph a receipt, so that I do not keep paper.

**Acceptance criteria**
- Given a photo, when I upload it, then the amount is read.
- Given a blurry photo, when I upload it, then I am asked again.

**Size:** M · **Priority:** Must

### Story 2: Attach a receipt to a report
As an employee, I want to attach receipts to a report, so that finance can check it.

## Approvals

### Story 3: Approve a report
As a manager, I want to approve reports, so that people are paid.
`;

let owner: Account;
let other: Account;
let connectionId: string;
let projectId: string;
let outputId: string;

beforeAll(async () => {
  server.events.on("request:start", ({ request }) => {
    requests.push(request.url);
  });
  owner = await signedUpClient({ name: "Olive Owner" });
  other = await signedUpClient({ name: "Oscar Other" });
  projectId = await projectWithPrd(owner.client, "Expenses", "# Expenses\n\n## Receipts\n\nSnap receipts.\n");
  outputId = await savedUserStories(projectId, owner.user.id, STORIES);
});

const connect = (token: string, siteUrl = JIRA_SITE, account = owner) =>
  account.client.post("/api/integrations/trackers", { service: "jira", token, settings: { siteUrl, email: JIRA_EMAIL } });
const send = (path: "preview" | "send", body: Record<string, unknown>, account = owner, project = projectId) =>
  account.client.post(`/api/projects/${project}/tracker/${path}`, body);
const form = (values: Record<string, string>) => ({ body: new URLSearchParams(values), headers: { "Content-Type": "application/x-www-form-urlencoded" } });
/** All the text of an ADF document. */
const adfText = (node: any): string => (node.text ?? "") + (node.content ?? []).map(adfText).join("\n");

describe("connecting Jira", () => {
  it("refuses a site that is not Atlassian's (or allowed) before any request, with the reason on the site field", async () => {
    for (const site of ["http://169.254.169.254", "https://evil.example.com", "http://acme.atlassian.net", "https://user:pw@acme.atlassian.net", "not a url"]) {
      const res = await connect(JIRA_TOKEN, site);
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe("settings.siteUrl");
    }
    expect(requests).toEqual([]);
    const page = await owner.client.call(
      "POST",
      "/settings/trackers?service=jira",
      form({ intent: "connect", service: "jira", siteUrl: "https://intranet.local", email: JIRA_EMAIL, token: JIRA_TOKEN }),
    );
    expect(page.status).toBe(400);
    const doc = parseHtml(page.text);
    expect(doc.querySelector("#field-siteUrl-error")?.textContent).toMatch(/^Only Jira Cloud sites \(https:\/\/….atlassian.net\) can be connected/);
    expect(page.text).not.toContain(JIRA_TOKEN);
    expect(requests).toEqual([]);
    expect(await db.selectFrom("trackerConnections").selectAll().execute()).toEqual([]);
  });

  it("refuses a token Jira refuses, with Jira's message next to the token field", async () => {
    const res = await connect("wrong-token");
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details).toEqual([{ path: "token", message: "Jira refused the API token: Client must be authenticated to access this resource." }]);
    const page = await owner.client.get("/settings/trackers?service=jira");
    const doc = parseHtml(page.text);
    expect([...doc.querySelectorAll("#field-service option")].map((o) => o.textContent)).toEqual(["GitHub", "Jira", "Linear"]);
    expect(["field-siteUrl", "field-email", "field-token"].map((id) => doc.querySelector(`label[for=${id}]`)?.textContent)).toEqual([
      "Site URL",
      "Account e-mail",
      "Jira API token",
    ]);
    const bad = await owner.client.call(
      "POST",
      "/settings/trackers?service=jira",
      form({ intent: "connect", service: "jira", siteUrl: JIRA_SITE, email: JIRA_EMAIL, token: "wrong-token" }),
    );
    expect(parseHtml(bad.text).querySelector("#field-token-error")?.textContent).toBe(
      "Jira refused the API token: Client must be authenticated to access this resource.",
    );
  });

  it("stores a good token encrypted with the site and e-mail, labels the account and lists every page of projects", async () => {
    const res = await connect(JIRA_TOKEN);
    expect(res.status, res.text).toBe(201);
    connectionId = res.body.connection.id;
    expect(res.body.connection).toMatchObject({ service: "jira", serviceName: "Jira", targetKind: "project", accountLabel: `Jo Jira (${JIRA_EMAIL})` });
    expect(res.body.connection.webhookUrl).toBe(`http://localhost:3000/api/webhooks/trackers/jira/${connectionId}`);
    expect(res.text).not.toContain(JIRA_TOKEN);
    const row = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).executeTakeFirstOrThrow();
    expect(decrypt(row.tokenEncrypted)).toBe(JIRA_TOKEN);
    expect(JSON.parse(row.settings)).toEqual({ siteUrl: JIRA_SITE, email: JIRA_EMAIL });
    const targets = await owner.client.get(`/api/integrations/trackers/${connectionId}/targets`);
    expect(targets.body.targets.map((t: { id: string }) => t.id)).toEqual(["EXP", "OPS", "WEB"]);
    expect(targets.body.targets[0]).toEqual({ id: "EXP", name: "Expenses (EXP)", url: `${JIRA_SITE}/browse/EXP`, allowed: true });
  });
});

describe("sending stories to Jira", () => {
  it("previews without calling Jira, then creates one Story per story (the project has that type, looked up once) with an ADF description and hyphenated labels", async () => {
    jira.calls.length = 0;
    const preview = await send("preview", { connectionId, target: "EXP", outputId });
    expect(preview.body).toMatchObject({ creates: 3, updates: 0 });
    expect(jira.calls).toEqual([]);
    const res = await send("send", { connectionId, target: "EXP", outputId });
    expect(res.body).toMatchObject({ created: 3, updated: 0, failed: 0 });
    expect(jira.issues.map((i) => [i.key, i.summary, i.issuetype])).toEqual([
      ["EXP-1", "Snap a receipt", "Story"],
      ["EXP-2", "Attach a receipt to a report", "Story"],
      ["EXP-3", "Approve a report", "Story"],
    ]);
    expect(jira.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /issue/createmeta/EXP/issuetypes", "POST /issue", "POST /issue", "POST /issue"]);
    const description = jira.issues[0]!.description;
    expect(description).toMatchObject({ version: 1, type: "doc" });
    expect(description.content.find((b: { type: string }) => b.type === "bulletList").content).toHaveLength(2);
    expect(adfText(description)).toContain("Given a photo, when I upload it, then the amount is read.");
    const link = JSON.stringify(description).match(/"href":"([^"]+)"/)?.[1];
    expect(link).toContain(`/projects/${projectId}`);
    expect(jira.issues[0]!.labels).toEqual(["user-story", "priority:-must", "size:-M"]);
    const list = await owner.client.get(`/api/projects/${projectId}/tracker/issues`);
    expect(list.body.issues.map((i: { externalKey: string; state: string; url: string }) => [i.externalKey, i.state, i.url])).toEqual([
      ["EXP-1", "open", `${JIRA_SITE}/browse/EXP-1`],
      ["EXP-2", "open", `${JIRA_SITE}/browse/EXP-2`],
      ["EXP-3", "open", `${JIRA_SITE}/browse/EXP-3`],
    ]);
  });

  it("updates the linked issues with PUT when sent again, creating nothing new", async () => {
    jira.calls.length = 0;
    const res = await send("send", { connectionId, target: "EXP", outputId });
    expect(res.body).toMatchObject({ created: 0, updated: 3, failed: 0 });
    expect(jira.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["PUT /issue/EXP-1", "PUT /issue/EXP-2", "PUT /issue/EXP-3"]);
    expect(jira.issues).toHaveLength(3);
  });

  it("waits out a short Retry-After and completes; a long one stops the send, and sending again completes without duplicates", async () => {
    jira.failures.push({ retryAfter: 2 });
    const short = await send("send", { connectionId, target: "OPS", outputId });
    expect(short.body).toMatchObject({ created: 3, failed: 0 });
    expect(waits).toEqual([2000]);
    jira.failures.push(null, { retryAfter: 120 });
    const res = await send("send", { connectionId, target: "WEB", outputId });
    expect(res.body).toMatchObject({ created: 1, failed: 2 });
    expect(res.body.results.map((r: { action: string }) => r.action)).toEqual(["created", "failed", "not_sent"]);
    expect(res.body.results[1].error).toBe("Jira is rate limiting: try again in 120 s");
    const again = await send("send", { connectionId, target: "WEB", outputId });
    expect(again.body).toMatchObject({ created: 2, updated: 1, failed: 0 });
    expect(jira.issues.filter((i) => i.project === "WEB").map((i) => i.summary)).toEqual([
      "Snap a receipt",
      "Attach a receipt to a report",
      "Approve a report",
    ]);
    // OPS has no Story type: Task. WEB has neither Story nor Task: its first type that is not a subtask (Bug).
    expect([...new Set(jira.issues.filter((i) => i.project === "OPS").map((i) => i.issuetype))]).toEqual(["Task"]);
    expect([...new Set(jira.issues.filter((i) => i.project === "WEB").map((i) => i.issuetype))]).toEqual(["Bug"]);
  });
});

describe("Jira webhooks", () => {
  const secret = async () =>
    decrypt(
      (await db.selectFrom("trackerConnections").select("webhookSecretEncrypted").where("id", "=", connectionId).executeTakeFirstOrThrow())
        .webhookSecretEncrypted,
    )!;
  const hmac = (key: string, body: string) => `sha256=${crypto.createHmac("sha256", key).update(body).digest("hex")}`;
  const event = (key: string, category: string, webhookEvent = "jira:issue_updated") => {
    const issue = jira.issues.find((i) => i.key === key);
    return {
      timestamp: Date.now(),
      webhookEvent,
      issue: { id: issue?.id ?? "99999", key, fields: { summary: issue?.summary ?? "x", status: { statusCategory: { key: category } } } },
    };
  };
  const deliver = async (payload: unknown, signature?: string) => {
    const body = JSON.stringify(payload);
    return owner.client.call("POST", `/api/webhooks/trackers/jira/${connectionId}`, {
      body,
      cookies: false,
      headers: { "Content-Type": "application/json", "X-Hub-Signature": signature ?? hmac(await secret(), body) },
    });
  };

  it("a signed issue update moves the story's state and the project's progress", async () => {
    const done = await deliver(event("EXP-1", "done"));
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ received: true, updated: 1 });
    expect((await deliver(event("EXP-2", "indeterminate"))).body.updated).toBe(1);
    const list = (await owner.client.get(`/api/projects/${projectId}/tracker/issues`)).body;
    expect(
      list.issues.filter((i: { target: string }) => i.target === "EXP").map((i: { externalKey: string; state: string }) => [i.externalKey, i.state]),
    ).toEqual([
      ["EXP-1", "done"],
      ["EXP-2", "in_progress"],
      ["EXP-3", "open"],
    ]);
    expect(list.progress).toEqual({ total: 9, done: 1, inProgress: 1, open: 7 });
  });

  it("refuses a forged or missing signature (401); other events and unlinked issues change nothing (202)", async () => {
    expectError(await deliver(event("EXP-3", "done"), `sha256=${"0".repeat(64)}`), 401, "UNAUTHORIZED");
    const body = JSON.stringify(event("EXP-3", "done"));
    expectError(await deliver(event("EXP-3", "done"), hmac("not-the-secret", body)), 401, "UNAUTHORIZED");
    expectError(await deliver(event("EXP-3", "done"), ""), 401, "UNAUTHORIZED");
    expect((await deliver({ webhookEvent: "comment_created", comment: { id: "1" } })).status).toBe(202);
    expect((await deliver(event("NOPE-1", "done"))).status).toBe(202);
    const row = await db.selectFrom("trackerIssues").select("state").where("externalKey", "=", "EXP-3").executeTakeFirstOrThrow();
    expect(row.state).toBe("open");
  });
});

describe("access", () => {
  it("another organization can neither use this Jira connection nor see its issues (404)", async () => {
    const theirs = await projectWithPrd(other.client, "Theirs", "");
    expectError(await send("send", { connectionId, target: "EXP", markdown: STORIES }, other, theirs), 404, "NOT_FOUND");
    expectError(await other.client.get(`/api/integrations/trackers/${connectionId}/targets`), 404, "NOT_FOUND");
    expectError(await other.client.post(`/api/integrations/trackers/${connectionId}/webhook-secret`, { secret: "lin_wh_stolen00000" }), 404, "NOT_FOUND");
    expectError(await other.client.get(`/api/projects/${projectId}/tracker/issues`), 404, "NOT_FOUND");
    expect((await other.client.get("/api/integrations/trackers")).body.connections).toEqual([]);
  });
});
