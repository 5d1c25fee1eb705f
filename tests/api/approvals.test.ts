import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg } from "../support/org";

const WF = "/api/admin/approval-workflows";

async function newProject(a: Account, name: string) {
  const res = await a.client.post("/api/projects", { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const notificationsFor = (userId: string) => db.selectFrom("notifications").selectAll().where("userId", "=", userId).where("type", "=", "approval").execute();

let owner: Account, admin: Account, member: Account, approver2: Account, outsider: Account;
let orgId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  orgId = owner.organization.id;
  admin = await joinOrg(orgId, "admin", "Ada Admin");
  member = await joinOrg(orgId, "member", "Max Member");
  approver2 = await joinOrg(orgId, "member", "Pia Approver");
  outsider = await signedUpClient({ name: "Out Sider" });
  await db.updateTable("organizations").set({ plan: "enterprise" }).where("id", "=", outsider.organization.id).execute();
});

describe("approval workflows", () => {
  it("needs the Enterprise plan and an admin", async () => {
    expectError(await owner.client.get(WF), 403, "PLAN_UPGRADE_REQUIRED");
    await db.updateTable("organizations").set({ plan: "enterprise" }).where("id", "=", orgId).execute();
    expectError(await member.client.get(WF), 403, "FORBIDDEN");
    const ok = await owner.client.get(WF);
    expect(ok.status).toBe(200);
    expect(ok.body.workflows).toEqual([]);
  });

  it("validates fields and approvers", async () => {
    expectError(await owner.client.post(WF, { name: "x", triggerType: "nope", approverIds: [admin.user.id] }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(WF, { name: "x", triggerType: "prd_publish", approverIds: [outsider.user.id] }), 400, "VALIDATION_ERROR");
    expectError(
      await owner.client.post(WF, { name: "x", triggerType: "prd_publish", approverIds: [admin.user.id], requiredApprovals: 11 }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await owner.client.post(WF, { name: "x", triggerType: "prd_publish", approverIds: [admin.user.id], requiredApprovals: 2 }),
      400,
      "VALIDATION_ERROR",
    );
  });

  it("creates, updates and deletes; another org gets 404", async () => {
    const res = await owner.client.post(WF, { name: "Temp", triggerType: "template_publish", approverIds: [admin.user.id] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.workflow).toMatchObject({ requiredApprovals: 1, allowSelfApproval: false, isActive: true });
    const id = res.body.workflow.id;
    const upd = await owner.client.patch(`${WF}/${id}`, { name: "Renamed", isActive: false });
    expect(upd.body.workflow).toMatchObject({ name: "Renamed", isActive: false });
    expectError(await outsider.client.patch(`${WF}/${id}`, { name: "hack" }), 404, "NOT_FOUND");
    expectError(await outsider.client.delete(`${WF}/${id}`), 404, "NOT_FOUND");
    expect((await owner.client.delete(`${WF}/${id}`)).body).toEqual({ success: true });
    expect((await owner.client.get(WF)).body.workflows).toHaveLength(0);
  });
});

describe("OpenAPI", () => {
  it("documents the 202 held-for-approval answer on every operation a workflow can hold", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    const held: [string, string][] = [
      ["patch", "/api/projects/{projectId}/status"],
      ["patch", "/api/projects/{projectId}"],
      ["delete", "/api/projects/{projectId}"],
      ["post", "/api/template-submissions"],
    ];
    for (const [method, path] of held) {
      const res = doc.paths[path][method].responses["202"];
      expect(res, `${method} ${path}`).toBeDefined();
      expect(res.content["application/json"].schema.$ref).toBe("#/components/schemas/ApprovalHeld");
    }
    expect(doc.paths["/api/projects/{projectId}"].get.responses["202"]).toBeUndefined();
    const shape = doc.components.schemas.ApprovalHeld;
    expect(shape.required).toEqual(expect.arrayContaining(["error", "code", "approvalRequest"]));
    expect(doc.paths["/api/approvals/{approvalId}/approve"].post).toBeDefined();
    expect(doc.paths["/api/approvals/{approvalId}/reject"].post).toBeDefined();
  });
});

describe("enforcement", () => {
  let publishWf: string;
  it("holds a move to APPROVED until two approvers agree", async () => {
    const wf = await owner.client.post(WF, {
      name: "PRD sign-off",
      triggerType: "prd_publish",
      approverIds: [admin.user.id, approver2.user.id, member.user.id],
      requiredApprovals: 2,
    });
    expect(wf.status, wf.text).toBe(201);
    publishWf = wf.body.workflow.id;
    const projectId = await newProject(member, "Checkout");
    const held = await member.client.patch(`/api/projects/${projectId}/status`, { status: "APPROVED" });
    expect(held.status, held.text).toBe(202);
    expect(held.body.approvalRequest).toMatchObject({ status: "pending", triggerType: "prd_publish", requiredApprovals: 2, approvals: 0 });
    expect(held.body).toMatchObject({ code: "APPROVAL_REQUIRED", error: expect.any(String) });
    const requestId = held.body.approvalRequest.id;
    const again = await member.client.patch(`/api/projects/${projectId}/status`, { status: "APPROVED" });
    expect(again.status).toBe(202);
    expect(again.body.approvalRequest.id).toBe(requestId);
    expect((await member.client.get(`/api/projects/${projectId}`)).body.status).not.toBe("APPROVED");
    expect(await notificationsFor(admin.user.id)).toHaveLength(1);
    expect(await notificationsFor(member.user.id)).toHaveLength(0); // the requester is not asked

    // Self-approval is refused (allowSelfApproval false); outsiders and non-approvers cannot decide.
    expectError(await member.client.post(`/api/approvals/${requestId}/approve`, {}), 403, "FORBIDDEN");
    expectError(await owner.client.post(`/api/approvals/${requestId}/approve`, {}), 403, "FORBIDDEN");
    expectError(await outsider.client.post(`/api/approvals/${requestId}/approve`, {}), 404, "NOT_FOUND");
    expectError(await outsider.client.get(`/api/approvals/${requestId}`), 404, "NOT_FOUND");

    const queue = await admin.client.get("/api/approvals?status=pending");
    expect(queue.body.approvals.map((a: any) => [a.id, a.canDecide])).toContainEqual([requestId, true]);
    const mine = await member.client.get("/api/approvals");
    expect(mine.body.approvals.map((a: any) => [a.id, a.canDecide])).toContainEqual([requestId, false]);

    const first = await admin.client.post(`/api/approvals/${requestId}/approve`, { comment: "LGTM" });
    expect(first.status, first.text).toBe(200);
    expect(first.body.approval).toMatchObject({ status: "pending", approvals: 1 });
    expectError(await admin.client.post(`/api/approvals/${requestId}/approve`, {}), 409, "CONFLICT");
    expect((await member.client.get(`/api/projects/${projectId}`)).body.status).not.toBe("APPROVED");

    const second = await approver2.client.post(`/api/approvals/${requestId}/approve`, {});
    expect(second.body.approval).toMatchObject({ status: "approved", approvals: 2 });
    expect((await member.client.get(`/api/projects/${projectId}`)).body.status).toBe("APPROVED");
    expect((await notificationsFor(member.user.id)).map((n) => n.title).join()).toMatch(/approved/);
    const audit = await db.selectFrom("auditLogs").select("action").where("orgId", "=", orgId).where("action", "like", "approval.%").execute();
    expect(audit.map((a) => a.action).filter((a) => a === "approval.approved")).toHaveLength(2);
  });

  it("one rejection rejects and nothing happens", async () => {
    const projectId = await newProject(member, "Search");
    const held = await member.client.patch(`/api/projects/${projectId}/status`, { status: "APPROVED" });
    const requestId = held.body.approvalRequest.id;
    const rej = await approver2.client.post(`/api/approvals/${requestId}/reject`, { comment: "Not yet" });
    expect(rej.body.approval).toMatchObject({ status: "rejected" });
    expect(rej.body.approval.decisions[0]).toMatchObject({ decision: "reject", comment: "Not yet" });
    expectError(await admin.client.post(`/api/approvals/${requestId}/approve`, {}), 409, "CONFLICT");
    expect((await member.client.get(`/api/projects/${projectId}`)).body.status).not.toBe("APPROVED");
  });

  it("self-approval works when allowed", async () => {
    await owner.client.patch(`${WF}/${publishWf}`, { allowSelfApproval: true, requiredApprovals: 1 });
    const projectId = await newProject(member, "Self");
    const held = await member.client.patch(`/api/projects/${projectId}/status`, { status: "APPROVED" });
    expect(held.status).toBe(202);
    const ok = await member.client.post(`/api/approvals/${held.body.approvalRequest.id}/approve`, {});
    expect(ok.body.approval.status).toBe("approved");
    expect((await member.client.get(`/api/projects/${projectId}`)).body.status).toBe("APPROVED");
  });

  it("holds a project delete and runs it on approval", async () => {
    await owner.client.post(WF, { name: "Delete guard", triggerType: "project_delete", approverIds: [admin.user.id] });
    const projectId = await newProject(member, "Doomed");
    const held = await member.client.delete(`/api/projects/${projectId}`);
    expect(held.status, held.text).toBe(202);
    expect((await member.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    const ok = await admin.client.post(`/api/approvals/${held.body.approvalRequest.id}/approve`, {});
    expect(ok.body.approval.status).toBe("approved");
    expect((await member.client.get(`/api/projects/${projectId}`)).status).toBe(404);
  });

  it("holds a template submission to the marketplace (template_publish) and submits it on approval", async () => {
    const wf = await owner.client.post(WF, { name: "Template guard", triggerType: "template_publish", approverIds: [admin.user.id] });
    expect(wf.status, wf.text).toBe(201);
    const tpl = await member.client.post("/api/admin/templates", { name: "Member kit", description: "A template", category: "product" });
    expect(tpl.status, tpl.text).toBe(201);
    const held = await member.client.post("/api/template-submissions", { templateId: tpl.body.id, notes: "Please publish" });
    expect(held.status, held.text).toBe(202);
    expect(held.body).toMatchObject({ code: "APPROVAL_REQUIRED" });
    expect(held.body.approvalRequest).toMatchObject({
      status: "pending",
      triggerType: "template_publish",
      target: { type: "template", id: tpl.body.id, label: "Member kit" },
    });
    expect((await member.client.get("/api/template-submissions")).body.submissions).toEqual([]);
    expectError(await member.client.post(`/api/approvals/${held.body.approvalRequest.id}/approve`, {}), 403, "FORBIDDEN");

    const ok = await admin.client.post(`/api/approvals/${held.body.approvalRequest.id}/approve`, {});
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.approval.status).toBe("approved");
    const subs = (await member.client.get("/api/template-submissions")).body.submissions;
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ templateId: tpl.body.id, templateName: "Member kit", notes: "Please publish", status: "pending" });
    const row = await db.selectFrom("templateSubmissions").select(["submitterId", "orgId"]).where("id", "=", subs[0].id).executeTakeFirstOrThrow();
    expect(row).toEqual({ submitterId: member.user.id, orgId });
    // A pending submission answers 409 before any new approval request is made.
    expectError(await member.client.post("/api/template-submissions", { templateId: tpl.body.id }), 409, "CONFLICT");
  });

  it("does not hold anything once the organization leaves Enterprise", async () => {
    await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", orgId).execute();
    const projectId = await newProject(member, "Pro again");
    expect((await member.client.delete(`/api/projects/${projectId}`)).status).toBe(200);
    await db.updateTable("organizations").set({ plan: "enterprise" }).where("id", "=", orgId).execute();
  });
});
