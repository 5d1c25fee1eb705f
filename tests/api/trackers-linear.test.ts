import { savedUserStories, useTrackerStandIn } from "../support/trackers";
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { createLinearMock, LINEAR_API_URL, LINEAR_KEY, TEAM_ID } from "../mocks/linear";
import { type Account, expectError } from "../support/org";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { projectWithPrd } from "../support/integrations";

/** Issue-tracker sync with Linear (docs/trackers.md): connect, preview, send, re-send, rate limits, signed webhooks, access. */

const linear = createLinearMock();
const { waits } = useTrackerStandIn({ LINEAR_API_URL }, linear.handlers);

const STORIES = `# User Stories: Expenses

## Receipts

### Story 1: Snap a receipt
As an employee, I want to photograph a receipt, so that I do not keep paper.

**Acceptance criteria**
- Given a photo, when I upload it, then the amount is read.

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
  owner = await signedUpClient({ name: "Olive Owner" });
  other = await signedUpClient({ name: "Oscar Other" });
  projectId = await projectWithPrd(owner.client, "Expenses", "# Expenses\n\n## Receipts\n\nSnap receipts.\n");
  outputId = await savedUserStories(projectId, owner.user.id, STORIES);
});

const send = (path: "preview" | "send", body: Record<string, unknown>, account = owner, project = projectId) =>
  account.client.post(`/api/projects/${project}/tracker/${path}`, body);
const form = (values: Record<string, string>) => ({ body: new URLSearchParams(values), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

describe("connecting Linear", () => {
  it("refuses an API key Linear refuses, with Linear's reason next to the token, and stores nothing", async () => {
    const res = await owner.client.post("/api/integrations/trackers", { service: "linear", token: "lin_api_wrong" });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details).toEqual([{ path: "token", message: "Linear refused the API key: Your API key is invalid or expired." }]);
    expect(await db.selectFrom("trackerConnections").selectAll().execute()).toEqual([]);
  });

  it("the settings page offers Linear with JavaScript off, and shows a refused key next to its field", async () => {
    const page = await owner.client.get("/settings/trackers?service=linear");
    const doc = parseHtml(page.text);
    expect(doc.querySelector("label[for=field-service]")?.textContent).toBe("Service");
    expect([...doc.querySelectorAll("#field-service option")].map((o) => o.textContent)).toEqual(["GitHub", "Jira", "Linear"]);
    expect(doc.querySelector("label[for=field-token]")?.textContent).toBe("Linear API key");
    expect(doc.querySelector("#connect-heading")?.textContent).toBe("Connect Linear");
    const bad = await owner.client.call("POST", "/settings/trackers?service=linear", form({ intent: "connect", service: "linear", token: "lin_api_wrong" }));
    expect(bad.status).toBe(400);
    const after = parseHtml(bad.text);
    expect(after.querySelector("#field-token-error")?.textContent).toBe("Linear refused the API key: Your API key is invalid or expired.");
    expect(after.querySelector("label[for=field-token]")?.textContent).toBe("Linear API key");
    expect(bad.text).not.toContain("lin_api_wrong");
  });

  it("stores a good key encrypted, labels the account, gives the Linear webhook URL and lists teams", async () => {
    const res = await owner.client.post("/api/integrations/trackers", { service: "linear", token: LINEAR_KEY });
    expect(res.status, res.text).toBe(201);
    connectionId = res.body.connection.id;
    expect(res.body.connection).toMatchObject({
      service: "linear",
      serviceName: "Linear",
      targetKind: "team",
      accountLabel: "Lin Ear (lin@acme.test)",
      webhookUrl: `http://localhost:3000/api/webhooks/trackers/linear/${connectionId}`,
    });
    expect(res.text).not.toContain(LINEAR_KEY);
    const row = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).executeTakeFirstOrThrow();
    expect(decrypt(row.tokenEncrypted)).toBe(LINEAR_KEY);
    const targets = await owner.client.get(`/api/integrations/trackers/${connectionId}/targets`);
    expect(targets.body.targets).toEqual([
      { id: TEAM_ID, name: "Engineering (ENG)", url: null, allowed: true },
      { id: "team-design", name: "Design (DES)", url: null, allowed: true },
    ]);
  });
});

describe("sending stories to Linear", () => {
  it("previews three issues to create without calling Linear, then creates them with the team's matching labels", async () => {
    const preview = await send("preview", { connectionId, target: TEAM_ID, outputId });
    expect(preview.body).toMatchObject({ creates: 3, updates: 0 });
    expect(linear.calls).toEqual([]);
    const res = await send("send", { connectionId, target: TEAM_ID, outputId });
    expect(res.body).toMatchObject({ created: 3, updated: 0, failed: 0 });
    expect(linear.issues.map((i) => i.title)).toEqual(["Snap a receipt", "Attach a receipt to a report", "Approve a report"]);
    expect(linear.issues[0]!.description).toContain("Given a photo, when I upload it, then the amount is read.");
    expect(linear.issues[0]!.labelIds).toEqual(["label-story", "label-must"]);
    expect(linear.calls[0]!.variables.input.teamId).toBe(TEAM_ID);
    const list = await owner.client.get(`/api/projects/${projectId}/tracker/issues`);
    expect(list.body.issues.map((i: { externalKey: string; state: string }) => [i.externalKey, i.state])).toEqual([
      ["ENG-1", "open"],
      ["ENG-2", "open"],
      ["ENG-3", "open"],
    ]);
  });

  it("updates the linked issues when sent again, creating nothing new", async () => {
    const res = await send("send", { connectionId, target: TEAM_ID, outputId });
    expect(res.body).toMatchObject({ created: 0, updated: 3, failed: 0 });
    expect(linear.calls.filter((c) => c.operation === "IssueCreate")).toHaveLength(3);
    expect(linear.calls.filter((c) => c.operation === "IssueUpdate").map((c) => c.variables.id)).toEqual(["issue-1", "issue-2", "issue-3"]);
    expect(linear.issues).toHaveLength(3);
  });

  it("stops at Linear's RATELIMITED answer with earlier stories linked; sending again completes without duplicates", async () => {
    linear.failures.push(null, { rateLimitResetMs: Date.now() + 90_000 });
    const res = await send("send", { connectionId, target: "team-design", outputId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 1, updated: 0, failed: 2 });
    expect(res.body.results.map((r: { action: string }) => r.action)).toEqual(["created", "failed", "not_sent"]);
    expect(res.body.results[1].error).toMatch(/^Linear is rate limiting: try again in (89|90) s$/);
    expect(waits).toEqual([]);
    expect((await owner.client.get("/api/integrations/trackers")).body.connections[0].lastError).toMatch(/Linear is rate limiting/);
    const again = await send("send", { connectionId, target: "team-design", outputId });
    expect(again.body).toMatchObject({ created: 2, updated: 1, failed: 0 });
    expect(linear.issues.filter((i) => i.teamId === "team-design").map((i) => i.title)).toEqual([
      "Snap a receipt",
      "Attach a receipt to a report",
      "Approve a report",
    ]);
  });
});

describe("Linear webhooks", () => {
  const secret = async () =>
    decrypt(
      (await db.selectFrom("trackerConnections").select("webhookSecretEncrypted").where("id", "=", connectionId).executeTakeFirstOrThrow())
        .webhookSecretEncrypted,
    )!;
  const hmac = (key: string, body: string) => crypto.createHmac("sha256", key).update(body).digest("hex");
  const event = (id: string, stateType: string, at = Date.now()) => ({
    action: "update",
    type: "Issue",
    data: { id, identifier: "ENG-1", title: "Snap a receipt", state: { id: "s", name: stateType, type: stateType } },
    url: "https://linear.app/acme/issue/ENG-1",
    webhookTimestamp: at,
  });
  const deliver = async (payload: unknown, signature?: string) => {
    const body = JSON.stringify(payload);
    return owner.client.call("POST", `/api/webhooks/trackers/linear/${connectionId}`, {
      body,
      cookies: false,
      headers: { "Content-Type": "application/json", "Linear-Event": "Issue", "Linear-Signature": signature ?? hmac(await secret(), body) },
    });
  };
  const states = async () =>
    (await owner.client.get(`/api/projects/${projectId}/tracker/issues`)).body as {
      issues: { externalKey: string; state: string; target: string }[];
      progress: unknown;
    };

  it("a signed Issue update moves the story's state and the project's progress", async () => {
    const done = await deliver(event("issue-1", "completed"));
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ received: true, updated: 1 });
    expect((await deliver(event("issue-2", "started"))).body.updated).toBe(1);
    const list = await states();
    expect(list.issues.filter((i) => i.target === TEAM_ID).map((i) => [i.externalKey, i.state])).toEqual([
      ["ENG-1", "done"],
      ["ENG-2", "in_progress"],
      ["ENG-3", "open"],
    ]);
    expect(list.progress).toEqual({ total: 6, done: 1, inProgress: 1, open: 4 });
  });

  it("refuses a forged signature, another secret and a stale timestamp (401); other events change nothing (202)", async () => {
    expectError(await deliver(event("issue-3", "completed"), "0".repeat(64)), 401, "UNAUTHORIZED");
    const body = JSON.stringify(event("issue-3", "completed"));
    expectError(await deliver(event("issue-3", "completed"), hmac("not-the-secret", body)), 401, "UNAUTHORIZED");
    expectError(await deliver(event("issue-3", "completed", Date.now() - 5 * 60_000)), 401, "UNAUTHORIZED");
    const comment = await deliver({ action: "create", type: "Comment", data: { id: "c1", body: "hi" }, webhookTimestamp: Date.now() });
    expect(comment.status).toBe(202);
    const stranger = await deliver(event("issue-999", "completed"));
    expect(stranger.status).toBe(202);
    const row = await db.selectFrom("trackerIssues").select("state").where("externalId", "=", "issue-3").executeTakeFirstOrThrow();
    expect(row.state).toBe("open");
  });
});

describe("access", () => {
  it("another organization can neither use this Linear connection nor its webhook secret (404 / 401)", async () => {
    const theirs = await projectWithPrd(other.client, "Theirs", "");
    expectError(await send("send", { connectionId, target: TEAM_ID, markdown: STORIES }, other, theirs), 404, "NOT_FOUND");
    expectError(await other.client.get(`/api/integrations/trackers/${connectionId}/targets`), 404, "NOT_FOUND");
    expectError(await other.client.get(`/api/projects/${projectId}/tracker/issues`), 404, "NOT_FOUND");
    expect((await other.client.get("/api/integrations/trackers")).body.connections).toEqual([]);
    // The connection's id under another service's webhook path is not found.
    const wrongService = await owner.client.call("POST", `/api/webhooks/trackers/github/${connectionId}`, {
      body: "{}",
      cookies: false,
      headers: { "Content-Type": "application/json", "X-GitHub-Event": "issues" },
    });
    expectError(wrongService, 404, "NOT_FOUND");
  });
});
