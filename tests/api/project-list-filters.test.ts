import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, joinOrg, setPlan } from "../support/org";

/**
 * GET /api/projects filters and sorts, each alone and together. The list's
 * SQL is compiled once per shape of filters and reused with other values
 * (app/utils/query-template.server.ts): the same shape asked by another
 * organization, another reader or with other values must answer for those.
 */

let a: Account;
let b: Account;
const names = (res: { status: number; text: string; body: { projects: { name: string }[] } }) => {
  expect(res.status, res.text).toBe(200);
  return res.body.projects.map((p) => p.name);
};

beforeAll(async () => {
  a = await signedUpClient({ name: "Filter Owner" });
  b = await signedUpClient({ name: "Filter Stranger" });
  await setPlan(a.organization.id, "pro");
  await setPlan(b.organization.id, "pro");
  const projects: [string, string | null][] = [
    ["Alpha checkout", "high"],
    ["Beta billing", "low"],
    ["Gamma search", null],
    ["Delta checkout", "urgent"],
  ];
  for (const [name, priority] of projects) {
    expect((await a.client.post("/api/projects", { name, ...(priority ? { priority } : {}) })).status).toBe(201);
  }
  const ids = Object.fromEntries((await a.client.get("/api/projects?limit=10")).body.projects.map((p: { name: string; id: string }) => [p.name, p.id]));
  expect((await a.client.patch(`/api/projects/${ids["Beta billing"]}/assign`, { assignedToId: a.user.id })).status).toBe(200);
  expect((await a.client.patch(`/api/projects/${ids["Delta checkout"]}`, { status: "IN_REVIEW" })).status).toBe(200);
  await db.updateTable("projects").set({ createdAt: "2026-01-15T00:00:00.000Z" }).where("id", "=", ids["Alpha checkout"]).execute();
  await b.client.post("/api/projects", { name: "Stranger checkout", priority: "high" });
});

describe("GET /api/projects filters", () => {
  it("filters by priority (none for unset), several at once", async () => {
    expect(names(await a.client.get("/api/projects?priority=high&sortBy=name")).sort()).toEqual(["Alpha checkout"]);
    expect(names(await a.client.get("/api/projects?priority=high,urgent&sortBy=name"))).toEqual(["Alpha checkout", "Delta checkout"]);
    expect(names(await a.client.get("/api/projects?priority=none"))).toEqual(["Gamma search"]);
    // The same shape from another organization answers for it.
    expect(names(await b.client.get("/api/projects?priority=high&sortBy=name"))).toEqual(["Stranger checkout"]);
    expect((await a.client.get("/api/projects?priority=someday")).status).toBe(400);
  });

  it("filters by assignee: me, a person, nobody", async () => {
    expect(names(await a.client.get("/api/projects?assignedToMe=true"))).toEqual(["Beta billing"]);
    expect(names(await a.client.get(`/api/projects?assignedToId=${a.user.id}`))).toEqual(["Beta billing"]);
    expect(names(await a.client.get("/api/projects?assignedToId=none&sortBy=name"))).toEqual(["Alpha checkout", "Delta checkout", "Gamma search"]);
    expect(names(await b.client.get("/api/projects?assignedToMe=true"))).toEqual([]);
  });

  it("filters by status and creation date, and refuses a range that ends before it starts", async () => {
    expect(names(await a.client.get("/api/projects?status=IN_REVIEW"))).toEqual(["Delta checkout"]);
    expect(names(await a.client.get("/api/projects?createdTo=2026-02-01"))).toEqual(["Alpha checkout"]);
    expect(names(await a.client.get("/api/projects?createdFrom=2026-02-01&sortBy=name"))).toEqual(["Beta billing", "Delta checkout", "Gamma search"]);
    const bad = await a.client.get("/api/projects?createdFrom=2026-03-01&createdTo=2026-02-01");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
  });

  it("combines filters, search, sort and pages, with the total", async () => {
    const page1 = await a.client.get("/api/projects?search=checkout&priority=high,urgent&sortBy=name&sortOrder=desc&limit=1");
    expect(names(page1)).toEqual(["Delta checkout"]);
    expect(page1.body.total).toBe(2);
    const page2 = await a.client.get("/api/projects?search=checkout&priority=high,urgent&sortBy=name&sortOrder=desc&limit=1&offset=1");
    expect(names(page2)).toEqual(["Alpha checkout"]);
    expect(page2.body.total).toBe(2);
    expect(names(await a.client.get("/api/projects?search=bil&sortBy=priority"))).toEqual(["Beta billing"]);
  });

  it("shows a viewer only what is shared with them, in the same shapes as a member's", async () => {
    const viewer = await joinOrg(a.organization.id, "viewer", "Filter Viewer");
    expect(names(await viewer.client.get("/api/projects?sortBy=name"))).toEqual([]);
    const gamma = (await a.client.get("/api/projects?search=gamma")).body.projects[0].id;
    expect((await a.client.post(`/api/projects/${gamma}/collaborators`, { email: viewer.email, role: "viewer" })).status).toBe(201);
    expect(names(await viewer.client.get("/api/projects?sortBy=name"))).toEqual(["Gamma search"]);
    expect(names(await viewer.client.get("/api/projects?priority=none"))).toEqual(["Gamma search"]);
    expect(names(await a.client.get("/api/projects?priority=none"))).toEqual(["Gamma search"]);
  });
});
