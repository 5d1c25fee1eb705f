import { beforeAll, describe, expect, it } from "vitest";
import { offlinePoolState } from "~/ai/builtin/offline-pool.server";
import { checkCacheStats, OFF_THREAD_CHARS } from "~/domain/prd/check-cache.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg } from "../support/org";
import { pageText } from "../support/page";

/**
 * Issue 33: a viewer's check of a 320 K-character PRD took 19.4 s, and
 * another organization's `GET /api/projects` waited 13.2 s meanwhile. The
 * check is linear now, returns at most 500 issues (all of them counted) and
 * is cached by content, on the API, the project page and MCP alike.
 */

let owner: Account;
let viewer: Account;
let other: Account;
let projectId: string;

/** 320,000 characters of two-line sections, each with a vague word and a TODO: the shape that took 19.4 s. */
const LARGE = Array.from({ length: 20_000 }, (_, i) => `## Area ${i}\n- Make area ${i} fast TODO`)
  .join("\n")
  .slice(0, 320_000);

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
  other = await signedUpClient({ name: "Otto Other" });
  const project = await owner.client.post("/api/projects", { name: "Large PRD" });
  expect(project.status, project.text).toBe(201);
  projectId = project.body.id;
  const shared = await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" });
  expect(shared.status, shared.text).toBeLessThan(300);
  const prd = await owner.client.post(`/api/projects/${projectId}/prd`, { content: LARGE });
  expect(prd.status, prd.text).toBeLessThan(300);
  expect((await other.client.post("/api/projects", { name: "Elsewhere" })).status).toBe(201);
});

describe("where the check runs", () => {
  it("checks a short text in the server's thread, and a long one in the offline drafter's threads", async () => {
    // Before anything else in this file: no offline task has started a worker yet.
    expect(offlinePoolState().workers).toBe(0);
    const short = await owner.client.post(`/api/projects/${projectId}/prd/check`, { content: "## Goals\n- Be fast TODO" });
    expect(short.status, short.text).toBe(200);
    expect(offlinePoolState().workers).toBe(0);
    const long = await owner.client.post(`/api/projects/${projectId}/prd/check`, { content: `${LARGE.slice(0, OFF_THREAD_CHARS)}\n- one more line TODO` });
    expect(long.status, long.text).toBe(200);
    expect(long.body.check.totalIssues).toBeGreaterThan(100);
    expect(offlinePoolState().workers).toBeGreaterThanOrEqual(1);
  });
});

describe("checking a 320 K-character PRD", () => {
  it("answers a viewer with the first 500 issues and the count of all, and another organization is not kept waiting", async () => {
    const check = viewer.client.get(`/api/projects/${projectId}/prd/check`);
    const started = performance.now();
    const list = await other.client.get("/api/projects");
    const otherWaited = performance.now() - started;
    const res = await check;
    expect(res.status, res.text).toBe(200);
    const { issues, counts, totalIssues, truncated, partial } = res.body.check;
    expect(issues).toHaveLength(500);
    expect(truncated).toBe(true);
    expect(partial).toBe(false);
    expect(totalIssues).toBe(counts.high + counts.medium + counts.low);
    expect(totalIssues).toBeGreaterThan(10_000);
    expect(issues[0].rule).toBe("missing_section");
    expect(list.status).toBe(200);
    expect(list.body.projects.map((p: { name: string }) => p.name)).toEqual(["Elsewhere"]);
    // Generous: the check alone took 19.4 s before.
    expect(otherWaited).toBeLessThan(2_000);
  });

  it("checks the saved PRD once: the API, the page and the next call share the result", async () => {
    await viewer.client.get(`/api/projects/${projectId}/prd/check`);
    const before = checkCacheStats().computed;
    const again = await owner.client.get(`/api/projects/${projectId}/prd/check`);
    expect(again.status).toBe(200);
    const page = await viewer.client.get(`/projects/${projectId}`);
    expect(page.status).toBe(200);
    expect(checkCacheStats().computed).toBe(before);
    const total = again.body.check.totalIssues as number;
    expect(pageText(page)).toContain(`…and ${total - 12} more.`);
  });

  it("checks a new version again", async () => {
    const before = checkCacheStats().computed;
    expect((await owner.client.post(`/api/projects/${projectId}/prd`, { content: `${LARGE.slice(0, 100_000)}\n## Goals\n- Be quick` })).status).toBeLessThan(
      300,
    );
    const res = await viewer.client.get(`/api/projects/${projectId}/prd/check`);
    expect(checkCacheStats().computed).toBe(before + 1);
    expect(res.body.check.issues.some((i: { rule: string; line: number }) => i.rule === "goal_without_number")).toBe(true);
  });

  it("checks hostile unsaved text quickly and stays in the contract", async () => {
    const hostile = `${"(a+)+!".repeat(50)}\n${"[".repeat(100_000)}\nAs${" ".repeat(100_000)}x\n## a${" ".repeat(100_000)}b\nOwner: tbc${" ".repeat(100_000)}x`;
    const res = await viewer.client.post(`/api/projects/${projectId}/prd/check`, { content: hostile });
    expect(res.status, res.text).toBe(200);
    expect(res.body.check.partial).toBe(false);
    expect(res.body.check.truncated).toBe(false);
  });

  it("is not found for another organization", async () => {
    expectError(await other.client.get(`/api/projects/${projectId}/prd/check`), 404, "NOT_FOUND");
  });
});
