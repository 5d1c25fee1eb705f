import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";

describe("projects smoke", () => {
  it("create, list, get, patch with If-Match, PRD save and versions", async () => {
    const { client, organization } = await signedUpClient();
    await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", organization.id).execute();
    const created = await client.post("/api/projects", { name: "Checkout revamp", priority: "high" });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("DRAFT");
    const id = created.body.id;
    const list = await client.get("/api/projects?sortBy=name&status=DRAFT");
    expect(list.body.total).toBe(1);
    const got = await client.get(`/api/projects/${id}`);
    expect(got.headers.get("ETag")).toBe('"r1"');
    const patched = await client.patch(`/api/projects/${id}`, { status: "IN_PROGRESS" }, { headers: { "If-Match": '"r1"' } });
    expect(patched.status).toBe(200);
    const stale = await client.patch(`/api/projects/${id}`, { name: "x" }, { headers: { "If-Match": '"r1"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.current.revision).toBe(2);
    const prd = await client.post(`/api/projects/${id}/prd`, { content: "# PRD\n\nHello", style: "lean" });
    expect(prd.status).toBe(201);
    const v1 = prd.body.prd.versionId;
    const p2 = await client.patch(`/api/projects/${id}/prd`, { content: "# PRD\n\nHello world", baseVersionId: v1 });
    expect(p2.status).toBe(200);
    const conflict = await client.patch(`/api/projects/${id}/prd`, { content: "other", baseVersionId: v1 });
    expect(conflict.status).toBe(409);
    const diff = await client.get(`/api/projects/${id}/prd/versions/${p2.body.prd.versionId}?compare=${v1}`);
    expect(diff.body.compare.added).toBe(1);
    expect(diff.body.compare.removed).toBe(1);
    const hist = await client.get(`/api/projects/${id}/status-history`);
    expect(hist.body.history.map((h: any) => h.to)).toEqual(["DRAFT", "IN_PROGRESS"]);
    const act = await client.get(`/api/projects/${id}/activity`);
    expect(act.body.total).toBeGreaterThanOrEqual(4);
    const bad = await client.patch(`/api/projects/${id}/status`, { status: "NOPE" });
    expect(bad.body.code).toBe("INVALID_STATUS");
    const del = await client.delete(`/api/projects/${id}`);
    expect(del.body).toEqual({ success: true });
    expect((await client.get(`/api/projects/${id}`)).status).toBe(404);
  });
});

describe("project plan limit", () => {
  it("lets a Free organization create 10 projects, then answers 403 LIMIT_REACHED", async () => {
    const { client } = await signedUpClient();
    for (let i = 1; i <= 10; i++) {
      const res = await client.post("/api/projects", { name: `Idea ${i}` });
      expect(res.status).toBe(201);
    }
    const over = await client.post("/api/projects", { name: "Idea 11" });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ code: "LIMIT_REACHED", metric: "projects", limit: 10, current: 10 });
    expect((await client.get("/api/projects")).body.total).toBe(10);
  });
});
