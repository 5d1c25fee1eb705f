import { unzipSync } from "fflate";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { eventsNamed, newProjectWithPrd, rawPost } from "./exports-support";

const failing = vi.hoisted(() => ({ next: false }));
vi.mock("~/domain/exports/files.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/domain/exports/files.server")>();
  return {
    ...real,
    renderExport: async (...args: Parameters<typeof real.renderExport>) => {
      if (failing.next) {
        failing.next = false;
        throw new Error("renderer exploded");
      }
      return real.renderExport(...args);
    },
  };
});

let owner: Account, approver: Account, requester: Account;
let orgId: string, roadmap: string, pricing: string, workflowId: string;

const approve = async (id: string) => {
  const res = await approver.client.post(`/api/approvals/${id}/approve`, { comment: "ok" });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  owner = await signedUpClient({ name: "Owen Owner" });
  orgId = owner.organization.id;
  approver = await joinOrg(orgId, "admin", "Ada Approver");
  requester = await joinOrg(orgId, "member", "Rex Requester");
  roadmap = await newProjectWithPrd(owner, "Roadmap 2027", "## Themes\n\nGrowth and retention.");
  pricing = await newProjectWithPrd(owner, "Pricing Page", "## Goal\n\nClearer tiers.");
  await setPlan(orgId, "enterprise");
  const wf = await owner.client.post("/api/admin/approval-workflows", { name: "Export review", triggerType: "prd_export", approverIds: [approver.user.id] });
  expect(wf.status, wf.text).toBe(201);
  workflowId = wf.body.workflow.id;
});

afterEach(() => {
  failing.next = false;
});

describe("prd_export approval workflow", () => {
  let requestId: string;

  it("holds a project export: 202 APPROVAL_REQUIRED with the request; asking again reuses it", async () => {
    const res = await requester.client.post("/api/export/html", { projectId: roadmap });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      code: "APPROVAL_REQUIRED",
      approvalRequest: {
        triggerType: "prd_export",
        status: "pending",
        target: { type: "project", id: roadmap, label: "Roadmap 2027" },
        requestedBy: { id: requester.user.id },
      },
    });
    expect(typeof res.body.error).toBe("string");
    requestId = res.body.approvalRequest.id;
    const again = await requester.client.post("/api/export/pdf", { projectId: roadmap });
    expect(again.status).toBe(202);
    expect(again.body.approvalRequest.id).toBe(requestId);
    const notes = await db.selectFrom("notifications").selectAll().where("userId", "=", approver.user.id).where("type", "=", "approval").execute();
    expect(notes.length).toBe(1);
    expect((await eventsNamed(orgId, "export.completed")).length).toBe(0);
  });

  it("content exports are not tied to a project and are not held", async () => {
    const res = await rawPost(requester.client, "/api/export/html", { content: "# Scratch\n\nNot a PRD of the workspace." });
    expect(res.status, res.text).toBe(200);
  });

  it("once approved, the requester's next export goes through once; the one after is held again", async () => {
    const decided = await approve(requestId);
    expect(decided.approval.status).toBe("approved");
    const told = await db.selectFrom("notifications").selectAll().where("userId", "=", requester.user.id).where("type", "=", "export").execute();
    expect(told.map((n) => n.title)).toContain("Your export of Roadmap 2027 was approved");
    expect(told.find((n) => n.title.startsWith("Your export of"))!.link).toBe(`/projects/${roadmap}`);

    // Someone else does not inherit the requester's approval: they get a request of their own (rejected here).
    const other = await owner.client.post("/api/export/html", { projectId: roadmap });
    expect(other.status).toBe(202);
    expect(other.body.approvalRequest.id).not.toBe(requestId);
    expect(other.body.approvalRequest.requestedBy.id).toBe(owner.user.id);
    expect((await approver.client.post(`/api/approvals/${other.body.approvalRequest.id}/reject`, { comment: "no" })).status).toBe(200);

    const ok = await rawPost(requester.client, "/api/export/html", { projectId: roadmap });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.text).toContain("Growth and retention.");
    const completed = await eventsNamed(orgId, "export.completed");
    expect(completed.at(-1)!.data).toMatchObject({ projectId: roadmap, format: "html", bytes: ok.bytes.byteLength });
    const row = await db.selectFrom("approvalRequests").select("payload").where("id", "=", requestId).executeTakeFirstOrThrow();
    expect(JSON.parse(row.payload).consumedAt).toEqual(expect.any(String));

    const next = await requester.client.post("/api/export/html", { projectId: roadmap });
    expect(next.status).toBe(202);
    expect(next.body.approvalRequest.id).not.toBe(requestId);
    requestId = next.body.approvalRequest.id;
  });

  it("a failed render gives the approval back", async () => {
    await approve(requestId);
    failing.next = true;
    expectError(await requester.client.post("/api/export/html", { projectId: roadmap }), 500, "INTERNAL_ERROR");
    expect((await eventsNamed(orgId, "export.failed")).at(-1)!.data).toMatchObject({ projectId: roadmap, format: "html" });
    expect((await rawPost(requester.client, "/api/export/html", { projectId: roadmap })).status).toBe(200);
    expect((await requester.client.post("/api/export/html", { projectId: roadmap })).status).toBe(202);
  });

  it("bulk: held while any project lacks an approval (one request per project), then proceeds once", async () => {
    const held = await requester.client.post("/api/export/bulk", { projectIds: [roadmap, pricing], format: "markdown" });
    expect(held.status, held.text).toBe(202);
    expect(held.body.code).toBe("APPROVAL_REQUIRED");
    const requests = held.body.approvalRequests as { id: string; target: { id: string } }[];
    expect(requests.map((r) => r.target.id).sort()).toEqual([roadmap, pricing].sort());
    expect(held.body.approvalRequest.id).toBe(requests[0]!.id);

    await approve(requests[0]!.id);
    expect((await requester.client.post("/api/export/bulk", { projectIds: [roadmap, pricing], format: "markdown" })).status).toBe(202);
    await approve(requests[1]!.id);

    const res = await rawPost(requester.client, "/api/export/bulk", { projectIds: [roadmap, pricing], format: "markdown" });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(unzipSync(res.bytes)).sort()).toEqual(["Pricing-Page.md", "README.txt", "Roadmap-2027.md"]);
    expect((await requester.client.post("/api/export/bulk", { projectIds: [pricing], format: "markdown" })).status).toBe(202);
  });

  it("an inactive workflow holds nothing", async () => {
    expect((await owner.client.patch(`/api/admin/approval-workflows/${workflowId}`, { isActive: false })).status).toBe(200);
    expect((await rawPost(requester.client, "/api/export/html", { projectId: pricing })).status).toBe(200);
    expect((await owner.client.patch(`/api/admin/approval-workflows/${workflowId}`, { isActive: true })).status).toBe(200);
  });

  it("holds a new scheduled export of the project until approved, then creates it once", async () => {
    const body = { projectId: roadmap, scheduleType: "weekly", format: "markdown", timezone: "UTC", deliveryMethod: "email", recipients: ["team@example.com"] };
    const held = await owner.client.post("/api/scheduled-exports", body);
    expect(held.status, held.text).toBe(202);
    expect(held.body).toMatchObject({ code: "APPROVAL_REQUIRED", approvalRequest: { triggerType: "prd_export", target: { id: roadmap } } });
    expect(await db.selectFrom("scheduledExports").select("id").where("orgId", "=", orgId).execute()).toHaveLength(0);
    await approve(held.body.approvalRequest.id);
    const created = await owner.client.post("/api/scheduled-exports", body);
    expect(created.status, created.text).toBe(201);
    expect((await owner.client.post("/api/scheduled-exports", body)).status).toBe(202);
  });

  it("holds a new digest of all projects the same way, as a request about the organization", async () => {
    const body = { scheduleType: "weekly", format: "markdown", timezone: "UTC", deliveryMethod: "email", recipients: ["team@example.com"] };
    const held = await requester.client.post("/api/scheduled-exports", body);
    expect(held.status, held.text).toBe(202);
    expect(held.body.approvalRequest).toMatchObject({ triggerType: "prd_export", target: { type: "organization", id: orgId, label: "All projects (digest)" } });
    await approve(held.body.approvalRequest.id);
    const created = await requester.client.post("/api/scheduled-exports", body);
    expect(created.status, created.text).toBe(201);
    expect(created.body.schedule.projectId).toBeNull();
  });
});
