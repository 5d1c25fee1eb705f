import { savedUserStories, useTrackerStandIn } from "../support/trackers";
import { sign } from "@octokit/webhooks-methods";
import { http } from "msw";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { createGithubMock, GITHUB_API_URL, GOOD_TOKEN } from "../mocks/github";
import { type Account, expectError, joinOrg } from "../support/org";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { pageText } from "../support/page";
import { projectWithPrd } from "../support/integrations";

/** Issue-tracker sync with GitHub (docs/trackers.md): connect, preview, send, re-send, rate limits, webhooks, access. */

const gh = createGithubMock();
const { waits, server } = useTrackerStandIn({ GITHUB_API_URL }, gh.handlers);

const STORIES = `# User Stories: Expenses

## Receipts

### Story 1: Snap a receipt
As an employee, I want to photograph a receipt, so that I do not keep paper.

**Acceptance criteria**
- Given a photo, when I upload it, then the amount is read.
- Given a blurry photo, when I upload it, then I am asked to retake it.

**Size:** M · **Priority:** Must

### Story 2: Attach a receipt to a report
As an employee, I want to attach receipts to a report, so that finance can check it.

**Acceptance criteria**
- Given a report, when I attach a receipt, then it shows on the report.

## Approvals

### Story 3: Approve a report
As a manager, I want to approve reports, so that people are paid.

**Acceptance criteria**
- Given a submitted report, when I approve it, then finance sees it.
`;

let owner: Account;
let other: Account;
let viewer: Account;
let connectionId: string;
let projectId: string;
let outputId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olive Owner" });
  other = await signedUpClient({ name: "Oscar Other" });
  viewer = await joinOrg(owner.organization.id, "viewer", "Vera Viewer");
  projectId = await projectWithPrd(owner.client, "Expenses", "# Expenses\n\n## Receipts\n\nSnap receipts.\n");
  outputId = await savedUserStories(projectId, owner.user.id, STORIES);
});

const send = (path: "preview" | "send", body: Record<string, unknown>, account = owner, project = projectId) =>
  account.client.post(`/api/projects/${project}/tracker/${path}`, body);

describe("connecting GitHub", () => {
  it("refuses a token GitHub refuses, with GitHub's reason next to the token", async () => {
    const res = await owner.client.post("/api/integrations/trackers", { service: "github", token: "ghp_wrong" });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details).toEqual([{ path: "token", message: "GitHub refused the token: Bad credentials" }]);
    expect(await db.selectFrom("trackerConnections").selectAll().execute()).toEqual([]);
  });

  it("stores a good token encrypted and gives the admin the webhook URL and secret", async () => {
    const res = await owner.client.post("/api/integrations/trackers", { service: "github", token: GOOD_TOKEN });
    expect(res.status, res.text).toBe(201);
    const c = res.body.connection;
    connectionId = c.id;
    expect(c).toMatchObject({
      service: "github",
      accountLabel: "octocat",
      authKind: "token",
      webhookUrl: `http://localhost:3000/api/webhooks/trackers/github/${c.id}`,
    });
    expect(c.webhookSecret).toMatch(/^[\w-]{30,}$/);
    expect(res.text).not.toContain(GOOD_TOKEN);
    const row = await db.selectFrom("trackerConnections").selectAll().where("id", "=", c.id).executeTakeFirstOrThrow();
    expect(row.tokenEncrypted).not.toContain(GOOD_TOKEN);
    expect(decrypt(row.tokenEncrypted)).toBe(GOOD_TOKEN);
    expect(decrypt(row.webhookSecretEncrypted)).toBe(c.webhookSecret);
  });

  it("shows members the connection without its secret, and lists only repositories the token can push to", async () => {
    const seen = await viewer.client.get("/api/integrations/trackers");
    expect(seen.status).toBe(200);
    expect(seen.body.connections).toHaveLength(1);
    expect(seen.body.connections[0].webhookSecret).toBeNull();
    expect(seen.body.services).toEqual([]);
    expectError(await viewer.client.post("/api/integrations/trackers", { service: "github", token: GOOD_TOKEN }), 403, "FORBIDDEN");
    const targets = await owner.client.get(`/api/integrations/trackers/${connectionId}/targets`);
    expect(targets.status, targets.text).toBe(200);
    expect(targets.body.targets.map((t: { id: string }) => t.id)).toEqual(["acme/app", "acme/other"]);
  });
});

describe("sending stories", () => {
  it("previews three issues to create, without calling GitHub", async () => {
    const before = gh.calls.length;
    const res = await send("preview", { connectionId, target: "acme/app", outputId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ creates: 3, updates: 0, target: "acme/app" });
    expect(res.body.stories.map((s: { title: string; action: string }) => [s.title, s.action])).toEqual([
      ["Snap a receipt", "create"],
      ["Attach a receipt to a report", "create"],
      ["Approve a report", "create"],
    ]);
    expect(res.body.stories[0].labels).toEqual(["user story", "priority: must", "size: M"]);
    expect(res.body.stories[0].section).toBe("Receipts");
    expect(gh.calls.length).toBe(before);
    expect(await db.selectFrom("trackerIssues").selectAll().execute()).toEqual([]);
  });

  it("creates three issues with the acceptance criteria and a link back to the PRD section", async () => {
    const res = await send("send", { connectionId, target: "acme/app", outputId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 3, updated: 0, failed: 0 });
    const made = gh.issues.filter((i) => i.repo === "acme/app");
    expect(made.map((i) => i.title)).toEqual(["Snap a receipt", "Attach a receipt to a report", "Approve a report"]);
    expect(made[0]!.body).toContain("- Given a blurry photo, when I upload it, then I am asked to retake it.");
    expect(made[0]!.body).toContain(`From PRD: [Expenses › Receipts](http://localhost:3000/projects/${projectId}#receipts)`);
    expect(made[0]!.labels).toEqual(["user story", "priority: must", "size: M"]);
    const issues = await owner.client.get(`/api/projects/${projectId}/tracker/issues`);
    expect(issues.body.issues.map((i: { externalKey: string; state: string }) => [i.externalKey, i.state])).toEqual([
      ["acme/app#1", "open"],
      ["acme/app#2", "open"],
      ["acme/app#3", "open"],
    ]);
    expect(issues.body.progress).toEqual({ total: 3, done: 0, inProgress: 0, open: 3 });
  });

  it("updates the linked issues when sent again, creating nothing new", async () => {
    const posts = gh.calls.filter((c) => c.method === "POST").length;
    const preview = await send("preview", { connectionId, target: "acme/app", outputId });
    expect(preview.body).toMatchObject({ creates: 0, updates: 3 });
    const res = await send("send", { connectionId, target: "acme/app", outputId });
    expect(res.body).toMatchObject({ created: 0, updated: 3, failed: 0 });
    expect(gh.calls.filter((c) => c.method === "POST").length).toBe(posts);
    expect(gh.calls.filter((c) => c.method === "PATCH").map((c) => c.path)).toEqual([1, 2, 3].map((n) => `/api/v3/repos/acme/app/issues/${n}`));
    expect(gh.issues.filter((i) => i.repo === "acme/app")).toHaveLength(3);
  });

  it("stops at a long rate limit with earlier stories linked, and a second send completes without duplicates", async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    // The first story goes through; the second meets GitHub's primary rate limit (reset in two minutes).
    gh.failures.push(null, {
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
      message: "API rate limit exceeded for user ID 1.",
    });
    const res = await send("send", { connectionId, target: "acme/other", outputId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 1, updated: 0, failed: 2 });
    expect(res.body.results.map((r: { action: string }) => r.action)).toEqual(["created", "failed", "not_sent"]);
    expect(res.body.results[1].error).toMatch(/^GitHub is rate limiting: try again in 1(19|20) s$/);
    expect(res.body.results[2].error).toMatch(/^Not sent: GitHub is rate limiting: try again in 1(19|20) s$/);
    expect(waits).toEqual([]);
    const linked = await db.selectFrom("trackerIssues").select(["title"]).where("target", "=", "acme/other").execute();
    expect(linked.map((r) => r.title)).toEqual(["Snap a receipt"]);
    const conn = await owner.client.get("/api/integrations/trackers");
    expect(conn.body.connections[0].lastError).toMatch(/GitHub is rate limiting/);

    // Again: a short secondary limit (retry-after 2) is waited for once and the write retried.
    gh.failures.push(null, { status: 403, headers: { "retry-after": "2" }, message: "You have exceeded a secondary rate limit." });
    const again = await send("send", { connectionId, target: "acme/other", outputId });
    expect(again.body).toMatchObject({ created: 2, updated: 1, failed: 0 });
    expect(waits).toEqual([2000]);
    expect(gh.issues.filter((i) => i.repo === "acme/other").map((i) => i.title)).toEqual([
      "Snap a receipt",
      "Attach a receipt to a report",
      "Approve a report",
    ]);
    expect((await owner.client.get("/api/integrations/trackers")).body.connections[0].lastError).toBeNull();
  });

  it("sends stories picked as Markdown, and says which source is missing", async () => {
    const picked = STORIES.slice(STORIES.indexOf("## Approvals"));
    const preview = await send("preview", { connectionId, target: "acme/app", markdown: picked });
    expect(preview.body.stories.map((s: { title: string; action: string }) => [s.title, s.action])).toEqual([["Approve a report", "update"]]);
    const none = await send("preview", { connectionId, target: "acme/app" });
    expectError(none, 400, "VALIDATION_ERROR");
    expect(none.body.details[0]).toMatchObject({ path: "outputId" });
  });
});

describe("GitHub webhooks", () => {
  const secret = async () =>
    decrypt(
      (await db.selectFrom("trackerConnections").select("webhookSecretEncrypted").where("id", "=", connectionId).executeTakeFirstOrThrow())
        .webhookSecretEncrypted,
    )!;
  const deliver = async (payload: unknown, signature?: string, event = "issues") => {
    const body = JSON.stringify(payload);
    return owner.client.call("POST", `/api/webhooks/trackers/github/${connectionId}`, {
      body,
      cookies: false,
      headers: {
        "Content-Type": "application/json",
        "X-GitHub-Event": event,
        "X-Hub-Signature-256": signature ?? (await sign(await secret(), body)),
        Origin: "https://github.com",
      },
    });
  };
  const issue = (repo: string, n: number) => gh.shape(gh.issues.find((i) => i.repo === repo && i.number === n)!);

  it("closes an issue: the story is done and the project's progress moves", async () => {
    const res = await deliver({ action: "closed", issue: { ...issue("acme/app", 1), state: "closed" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, updated: 1 });
    const labelled = await deliver({ action: "labeled", issue: { ...issue("acme/app", 2), labels: [{ name: "In progress" }] } });
    expect(labelled.body.updated).toBe(1);
    const list = await owner.client.get(`/api/projects/${projectId}/tracker/issues`);
    expect(list.body.issues.filter((i: { target: string }) => i.target === "acme/app").map((i: { state: string }) => i.state)).toEqual([
      "done",
      "in_progress",
      "open",
    ]);
    expect(list.body.progress).toEqual({ total: 6, done: 1, inProgress: 1, open: 4 });
  });

  it("refuses a forged signature (401) and accepts, changing nothing, events about other issues (202)", async () => {
    const forged = await deliver({ action: "closed", issue: { ...issue("acme/app", 3), state: "closed" } }, `sha256=${"0".repeat(64)}`);
    expectError(forged, 401, "UNAUTHORIZED");
    const unsigned = await deliver({ action: "closed", issue: { ...issue("acme/app", 3), state: "closed" } }, await sign("not-the-secret", "{}"));
    expectError(unsigned, 401, "UNAUTHORIZED");
    const stranger = await deliver({ action: "closed", issue: { id: 999999, number: 99, html_url: "x", title: "Elsewhere", state: "closed", labels: [] } });
    expect(stranger.status).toBe(202);
    expect(stranger.body).toEqual({ received: true, updated: 0 });
    const ping = await deliver({ zen: "Keep it logically awesome." }, undefined, "ping");
    expect(ping.status).toBe(202);
    const row = await db.selectFrom("trackerIssues").select("state").where("externalKey", "=", "acme/app#3").executeTakeFirstOrThrow();
    expect(row.state).toBe("open");
  });
});

describe("pages, with JavaScript off", () => {
  const form = (values: Record<string, string>) => ({ body: new URLSearchParams(values), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

  it("settings: admins see the webhook URL and secret and the token field; members see the connection read-only", async () => {
    const admin = await owner.client.get("/settings/trackers");
    expect(admin.status).toBe(200);
    const doc = parseHtml(admin.text);
    expect(doc.querySelector("label[for=field-token]")?.textContent).toBe("GitHub token");
    expect(admin.text).toContain(`/api/webhooks/trackers/github/${connectionId}`);
    const bad = await owner.client.call("POST", "/settings/trackers", form({ intent: "connect", service: "github", token: "ghp_wrong" }));
    expect(bad.status).toBe(400);
    expect(parseHtml(bad.text).querySelector("#field-token-error")?.textContent).toBe("GitHub refused the token: Bad credentials");
    expect(bad.text).not.toContain("ghp_wrong");
    const member = await joinOrg(owner.organization.id, "member", "Mo Member");
    const seen = await member.client.get("/settings/trackers");
    expect(seen.text).toContain("octocat");
    expect(parseHtml(seen.text).querySelector("#field-token")).toBeNull();
    expect(seen.text).not.toContain((await owner.client.get("/api/integrations/trackers")).body.connections[0].webhookSecret);
  });

  it("project: preview by GET, send by POST with a redirect, linked issues with states and progress", async () => {
    const page = await owner.client.get(`/projects/${projectId}/tracker?outputId=${outputId}&connectionId=${connectionId}&target=acme/app`);
    expect(page.status, page.text).toBe(200);
    const doc = parseHtml(page.text);
    expect(doc.querySelector("#preview-heading")?.textContent).toBe("Preview: acme/app");
    // One checkbox per story, labelled with what the send will do (tests/api/tracker-story-picking.test.ts picks some).
    expect([...doc.querySelectorAll("section[aria-labelledby=preview-heading] input[name=storyKeys] + label")].map((l) => l.textContent)).toEqual([
      "Snap a receipt — will update acme/app#1",
      "Attach a receipt to a report — will update acme/app#2",
      "Approve a report — will update acme/app#3",
    ]);
    expect(doc.querySelector("progress")?.getAttribute("value")).toBe("1");
    expect(pageText(page)).toContain("1 of 6 stories done");
    const sent = await owner.client.call("POST", `/projects/${projectId}/tracker`, form({ intent: "send", connectionId, target: "acme/app", outputId }));
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/projects/${projectId}/tracker`);
    expect(pageText(await owner.client.get(`/projects/${projectId}/tracker`))).toContain("Sent to acme/app: 0 created, 3 updated.");
    const documents = await owner.client.get(`/projects/${projectId}/ai/documents`);
    expect(parseHtml(documents.text).querySelector(`a[href="/projects/${projectId}/tracker?outputId=${outputId}"]`)?.textContent).toBe(
      "Send these stories to a tracker",
    );
  });
});

describe("two sends at once", () => {
  let raceProject: string;
  let raceOutput: string;
  beforeAll(async () => {
    raceProject = await projectWithPrd(owner.client, "Expenses, raced", "# Expenses\n\n## Receipts\n\nSnap receipts.\n");
    raceOutput = await savedUserStories(raceProject, owner.user.id, STORIES);
  });

  it("two sends at once: the second is refused with 409 while the first runs, and no story gets two issues", async () => {
    // GitHub answers the first create only when the test says so, so the two sends overlap.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let reached = false;
    server.use(
      http.post(`${GITHUB_API_URL}/repos/acme/race/issues`, async () => {
        reached = true;
        await gate; // then falls through to the stand-in's own handler
      }),
    );
    const first = send("send", { connectionId, target: "acme/race", outputId: raceOutput }, owner, raceProject);
    while (!reached) await new Promise((r) => setTimeout(r, 5));
    const second = await send("send", { connectionId, target: "acme/race", outputId: raceOutput }, owner, raceProject);
    expectError(second, 409, "CONFLICT");
    expect(second.body.error).toMatch(/already being sent to GitHub \(acme\/race\)/);
    // A preview is not held up by it.
    expect((await send("preview", { connectionId, target: "acme/race", outputId: raceOutput }, owner, raceProject)).body).toMatchObject({ creates: 3 });
    open();
    expect((await first).body).toMatchObject({ created: 3, failed: 0 });
    expect(gh.issues.filter((i) => i.repo === "acme/race")).toHaveLength(3);
    // Finished: the lease is released and a send updates.
    expect((await send("send", { connectionId, target: "acme/race", outputId: raceOutput }, owner, raceProject)).body).toMatchObject({
      created: 0,
      updated: 3,
    });
    expect(await db.selectFrom("trackerSendLocks").selectAll().execute()).toEqual([]);
  });

  it("takes over a lease left by a send that crashed", async () => {
    await db
      .insertInto("trackerSendLocks")
      .values({ lockKey: `${raceProject}\ngithub\nacme/crashed`, projectId: raceProject, holder: "gone", expiresAt: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await send("send", { connectionId, target: "acme/crashed", outputId: raceOutput }, owner, raceProject)).body).toMatchObject({ created: 3 });
  });
});

describe("access", () => {
  it("another organization can neither use this connection nor see this project's issues (404)", async () => {
    const theirs = await projectWithPrd(other.client, "Theirs", "");
    const theirOutput = await savedUserStories(theirs, owner.user.id, STORIES);
    expectError(await send("preview", { connectionId, target: "acme/app", outputId: theirOutput }, other, theirs), 404, "NOT_FOUND");
    expectError(await send("send", { connectionId, target: "acme/app", outputId: theirOutput }, other, theirs), 404, "NOT_FOUND");
    expectError(await send("send", { connectionId, target: "acme/app", outputId }, other), 404, "NOT_FOUND");
    expectError(await other.client.get(`/api/projects/${projectId}/tracker/issues`), 404, "NOT_FOUND");
    expectError(await other.client.get(`/api/integrations/trackers/${connectionId}/targets`), 404, "NOT_FOUND");
    expectError(await other.client.post(`/api/integrations/trackers/${connectionId}/disconnect`, {}), 404, "NOT_FOUND");
    expect((await other.client.get("/api/integrations/trackers")).body.connections).toEqual([]);
    // Another project's saved output cannot be sent from this project either.
    expectError(await send("preview", { connectionId, target: "acme/app", outputId: theirOutput }), 404, "NOT_FOUND");
  });

  it("a viewer cannot preview or send (403)", async () => {
    const posts = gh.calls.length;
    expectError(await send("send", { connectionId, target: "acme/app", outputId }, viewer), 403, "FORBIDDEN");
    expectError(await send("preview", { connectionId, target: "acme/app", outputId }, viewer), 403, "FORBIDDEN");
    expect(gh.calls.length).toBe(posts);
  });

  it("an admin disconnects: the token is gone, the linked issues stay listed", async () => {
    expect((await owner.client.post(`/api/integrations/trackers/${connectionId}/disconnect`, {})).status).toBe(200);
    expect(await db.selectFrom("trackerConnections").selectAll().execute()).toEqual([]);
    const list = await owner.client.get(`/api/projects/${projectId}/tracker/issues`);
    expect(list.body.progress.total).toBe(6);
  });
});
