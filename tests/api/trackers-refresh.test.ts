import { savedUserStories, useTrackerStandIn } from "../support/trackers";
import { http, HttpResponse } from "msw";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { refreshLimits } from "~/domain/trackers/refresh.server";
import { createGithubMock, GITHUB_API_URL, GOOD_TOKEN } from "../mocks/github";
import { createJiraMock, JIRA_EMAIL, JIRA_SITE, JIRA_TOKEN } from "../mocks/jira";
import { createLinearMock, LINEAR_API_URL, LINEAR_KEY, TEAM_ID } from "../mocks/linear";
import { type Account, expectError, joinOrg } from "../support/org";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { pageText } from "../support/page";
import { projectWithPrd } from "../support/integrations";

/** Refreshing linked issues' states from the trackers, without webhooks (docs/trackers.md, "Without webhooks: refresh"). */

const gh = createGithubMock();
const linear = createLinearMock();
const jira = createJiraMock();
const { server, waits } = useTrackerStandIn({ GITHUB_API_URL, LINEAR_API_URL, JIRA_ALLOWED_HOSTS: "jira.test" }, [
  ...gh.handlers,
  ...linear.handlers,
  ...jira.handlers,
]);

const story = (n: number) =>
  `### Story ${n}: Story number ${n}\nAs a user, I want thing ${n}, so that it works.\n\n**Acceptance criteria**\n- Given ${n}, then ${n}.\n`;
const stories = (count: number) => `# User Stories\n\n## Everything\n\n${Array.from({ length: count }, (_, i) => story(i + 1)).join("\n")}`;

let owner: Account;
let viewer: Account;
let other: Account;
const connections: Record<"github" | "linear" | "jira", string> = { github: "", linear: "", jira: "" };

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olive Owner" });
  other = await signedUpClient({ name: "Oscar Other" });
  viewer = await joinOrg(owner.organization.id, "viewer", "Vera Viewer");
  const made = await Promise.all([
    owner.client.post("/api/integrations/trackers", { service: "github", token: GOOD_TOKEN }),
    owner.client.post("/api/integrations/trackers", { service: "linear", token: LINEAR_KEY }),
    owner.client.post("/api/integrations/trackers", { service: "jira", token: JIRA_TOKEN, settings: { siteUrl: JIRA_SITE, email: JIRA_EMAIL } }),
  ]);
  for (const res of made) {
    expect(res.status, res.text).toBe(201);
    connections[res.body.connection.service as "github"] = res.body.connection.id;
  }
});

/** A project whose `count` stories were sent to `target` with `service`'s connection. */
async function sentProject(name: string, service: "github" | "linear" | "jira", target: string, count: number) {
  const projectId = await projectWithPrd(owner.client, name, `# ${name}\n\n## Everything\n\nText.\n`);
  const outputId = await savedUserStories(projectId, owner.user.id, stories(count));
  const sent = await owner.client.post(`/api/projects/${projectId}/tracker/send`, { connectionId: connections[service], target, outputId });
  expect(sent.status, sent.text).toBe(200);
  expect(sent.body.created).toBe(count);
  return projectId;
}

const refresh = (projectId: string, account = owner) => account.client.post(`/api/projects/${projectId}/tracker/refresh`, {});
const linked = (projectId: string) =>
  db.selectFrom("trackerIssues").select(["externalKey", "state", "title", "lastSyncedAt"]).where("projectId", "=", projectId).orderBy("externalKey").execute();
const form = (values: Record<string, string>) => ({ body: new URLSearchParams(values), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

describe("GitHub", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = await sentProject("GitHub refresh", "github", "acme/app", 4);
  });

  it("reads each issue: closed is done, labelled “in progress” is in progress, a deleted one is reported and keeps its state", async () => {
    const issue = (n: number) => gh.issues.find((i) => i.repo === "acme/app" && i.number === n)!;
    issue(1).state = "closed";
    issue(2).labels.push("in progress");
    issue(3).deleted = true;
    issue(4).title = "Renamed in GitHub";
    const before = await linked(projectId);
    const res = await refresh(projectId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ refreshed: 3, changed: 2, failed: 1, skipped: 0, remaining: 0 });
    expect(res.body.progress).toEqual({ total: 4, done: 1, inProgress: 1, open: 2 });
    const byKey = Object.fromEntries(res.body.results.map((r: { externalKey: string }) => [r.externalKey, r]));
    expect(byKey["acme/app#1"]).toMatchObject({ state: "done", previousState: "open", changed: true, error: null });
    expect(byKey["acme/app#2"]).toMatchObject({ state: "in_progress", previousState: "open", changed: true, error: null });
    expect(byKey["acme/app#3"]).toMatchObject({ state: "open", previousState: "open", changed: false });
    expect(byKey["acme/app#3"].error).toBe("acme/app#3 was deleted in GitHub, or the connection can no longer see it; its state is kept");
    const after = await linked(projectId);
    expect(after.map((r) => [r.externalKey, r.state])).toEqual([
      ["acme/app#1", "done"],
      ["acme/app#2", "in_progress"],
      ["acme/app#3", "open"],
      ["acme/app#4", "open"],
    ]);
    expect(after[3]!.title).toBe("Renamed in GitHub");
    // Checked issues have a new lastSyncedAt; the deleted one keeps its own.
    expect(after[0]!.lastSyncedAt > before[0]!.lastSyncedAt).toBe(true);
    expect(after[2]!.lastSyncedAt).toBe(before[2]!.lastSyncedAt);
    expect((await owner.client.get(`/api/projects/${projectId}/tracker/issues`)).body.progress).toEqual(res.body.progress);
  });

  it("refuses viewers (403) and other organizations (404), and changes nothing", async () => {
    gh.issues.find((i) => i.repo === "acme/app" && i.number === 4)!.state = "closed";
    expectError(await refresh(projectId, viewer), 403, "FORBIDDEN");
    expectError(await refresh(projectId, other), 404, "NOT_FOUND");
    expect((await linked(projectId)).find((r) => r.externalKey === "acme/app#4")!.state).toBe("open");
  });
});

describe("a project with many linked issues", () => {
  it("refreshes at most the limit per call, the longest unchecked first, and says how many remain", async () => {
    const projectId = await sentProject("Many issues", "github", "acme/many", 3);
    const limit = refreshLimits.issues;
    refreshLimits.issues = 2;
    try {
      const first = await refresh(projectId);
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ refreshed: 2, remaining: 1 });
      const checked = new Set(first.body.results.map((r: { externalKey: string }) => r.externalKey));
      const second = await refresh(projectId);
      expect(second.body).toMatchObject({ refreshed: 2, remaining: 1 });
      // The one the first call left comes first now.
      const left = ["acme/many#1", "acme/many#2", "acme/many#3"].find((k) => !checked.has(k));
      expect(second.body.results[0].externalKey).toBe(left);
    } finally {
      refreshLimits.issues = limit;
    }
    expect((await refresh(projectId)).body).toMatchObject({ refreshed: 3, remaining: 0 });
  });
});

describe("Linear and Jira", () => {
  it("Linear: a started issue is in progress, a completed one done", async () => {
    const projectId = await sentProject("Linear refresh", "linear", TEAM_ID, 3);
    const mine = linear.issues.slice(-3);
    mine[0]!.stateType = "started";
    mine[1]!.stateType = "completed";
    const res = await refresh(projectId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ refreshed: 3, changed: 2, failed: 0 });
    expect(linear.calls.filter((c) => c.operation === "Issue").map((c) => c.variables.id)).toEqual(expect.arrayContaining(mine.map((i) => i.id)));
    const states = Object.fromEntries((await linked(projectId)).map((r) => [r.externalKey, r.state]));
    expect(states).toEqual({ [mine[0]!.identifier]: "in_progress", [mine[1]!.identifier]: "done", [mine[2]!.identifier]: "open" });
  });

  it("Linear: an issue deleted in Linear is reported and keeps its state", async () => {
    const projectId = await sentProject("Linear deleted", "linear", TEAM_ID, 1);
    const gone = linear.issues.pop()!;
    const res = await refresh(projectId);
    expect(res.body).toMatchObject({ refreshed: 0, failed: 1 });
    expect(res.body.results[0].error).toBe(`${gone.identifier} was deleted in Linear, or the connection can no longer see it; its state is kept`);
  });

  it("Jira: an issue whose status category is done is done", async () => {
    const projectId = await sentProject("Jira refresh", "jira", "EXP", 2);
    const [first] = jira.issues.filter((i) => i.project === "EXP");
    first!.category = "done";
    const res = await refresh(projectId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ refreshed: 2, changed: 1, failed: 0 });
    expect((await linked(projectId)).map((r) => [r.externalKey, r.state])).toEqual([
      [first!.key, "done"],
      ["EXP-2", "open"],
    ]);
  });
});

describe("rate limits", () => {
  it("a long Retry-After stops the refresh: states read so far are kept, the rest reported with the wait", async () => {
    const projectId = await sentProject("Rate limited", "github", "acme/rate", 6);
    for (const i of gh.issues.filter((x) => x.repo === "acme/rate")) i.state = "closed";
    let reads = 0;
    server.use(
      http.get(`${GITHUB_API_URL}/repos/acme/rate/issues/:number`, async () => {
        reads++;
        // The first read goes through to the stand-in, answered after the others: GitHub's secondary rate limit.
        if (reads === 1) {
          while (reads < 4) await new Promise((r) => setTimeout(r, 5));
          await new Promise((r) => setTimeout(r, 50));
          return;
        }
        return HttpResponse.json({ message: "You have exceeded a secondary rate limit." }, { status: 403, headers: { "retry-after": "120" } });
      }),
    );
    const waited = waits.length;
    const res = await refresh(projectId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ refreshed: 1, changed: 1, failed: 5 });
    // 4 reads at a time: the ones already asked fail, the last two are not asked at all.
    expect(reads).toBe(4);
    expect(waits.length).toBe(waited);
    const errors = res.body.results.map((r: { error: string | null }) => r.error).filter(Boolean);
    expect(errors).toContain("GitHub is rate limiting: try again in 120 s");
    expect(errors.filter((e: string) => e === "Not refreshed: GitHub is rate limiting: try again in 120 s")).toHaveLength(2);
    expect((await linked(projectId)).filter((r) => r.state === "done")).toHaveLength(1);
    const conn = (await owner.client.get("/api/integrations/trackers")).body.connections.find((c: { id: string }) => c.id === connections.github);
    expect(conn.lastError).toBe("GitHub is rate limiting: try again in 120 s");
  });

  it("a short Retry-After is waited for once, then the refresh goes on", async () => {
    const projectId = await sentProject("Briefly limited", "github", "acme/brief", 1);
    gh.issues.find((i) => i.repo === "acme/brief")!.state = "closed";
    let limited = false;
    server.use(
      http.get(`${GITHUB_API_URL}/repos/acme/brief/issues/:number`, () => {
        if (limited) return;
        limited = true;
        return HttpResponse.json({ message: "API rate limit exceeded" }, { status: 429, headers: { "retry-after": "2" } });
      }),
    );
    const waited = waits.length;
    const res = await refresh(projectId);
    expect(res.body).toMatchObject({ refreshed: 1, changed: 1, failed: 0 });
    expect(waits.slice(waited)).toEqual([2000]);
  });
});

describe("the page, with JavaScript off", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = await sentProject("Page refresh", "github", "acme/page", 3);
    const shared = await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" });
    expect(shared.status, shared.text).toBe(201);
  });

  it("shows the button and when states were last checked to editors, not to viewers", async () => {
    const page = parseHtml((await owner.client.get(`/projects/${projectId}/tracker`)).text);
    const button = [...page.querySelectorAll("form button")].find((b) => b.textContent === "Refresh states from the trackers");
    expect(button?.closest("form")?.querySelector("input[name=intent]")?.getAttribute("value")).toBe("refresh");
    expect(button?.closest("form")?.getAttribute("method")).toBe("post");
    expect(page.querySelector("#tracker-refresh-note")?.textContent).toMatch(/^Last checked \d/);
    expect(page.querySelector("#tracker-refresh-note time")?.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    const seen = await viewer.client.get(`/projects/${projectId}/tracker`);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain("Refresh states from the trackers");
  });

  it("POST → redirect → a notice naming what changed", async () => {
    gh.issues.find((i) => i.repo === "acme/page" && i.number === 2)!.state = "closed";
    const res = await owner.client.call("POST", `/projects/${projectId}/tracker`, form({ intent: "refresh" }));
    expect(res.status, res.text).toBe(302);
    expect(res.headers.get("Location")).toBe(`/projects/${projectId}/tracker`);
    const page = await owner.client.get(`/projects/${projectId}/tracker`);
    expect(pageText(page)).toContain("Refreshed 3 issues: 1 changed (acme/page#2 is now Done).");
    expect(pageText(page)).toContain("1 of 3 stories done");
  });

  it("a viewer's refresh is refused in plain words, and no state changes", async () => {
    gh.issues.find((i) => i.repo === "acme/page" && i.number === 3)!.state = "closed";
    const res = await viewer.client.call("POST", `/projects/${projectId}/tracker`, form({ intent: "refresh" }));
    expect(res.status).toBe(403);
    expect(pageText(res)).toContain("Only owners, admins and members can do this; you are a viewer.");
    expect((await linked(projectId)).find((r) => r.externalKey === "acme/page#3")!.state).toBe("open");
  });
});

describe("disconnected trackers", () => {
  it("skips and counts issues whose connection was disconnected", async () => {
    const projectId = await sentProject("Disconnected", "jira", "OPS", 2);
    expect((await owner.client.post(`/api/integrations/trackers/${connections.jira}/disconnect`, {})).status).toBe(200);
    jira.issues.find((i) => i.key === "OPS-1")!.category = "done";
    const res = await refresh(projectId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ refreshed: 0, changed: 0, failed: 0, skipped: 2, results: [] });
    expect((await linked(projectId)).map((r) => r.state)).toEqual(["open", "open"]);
  });
});
