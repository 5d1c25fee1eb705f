import { expect, it } from "vitest";
import { db } from "~/db.server";
import { addMembership } from "~/domain/orgs/orgs.server";
import { ORIGIN, signedUpClient, type TestClient } from "../support/client";

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });

it("lists requests to decide and approves one with JavaScript off", async () => {
  const owner = await signedUpClient({ name: "Page Owner" });
  const orgId = owner.organization.id;
  await db.updateTable("organizations").set({ plan: "enterprise" }).where("id", "=", orgId).execute();
  const member = await signedUpClient({ name: "Page Member" });
  await addMembership(db, orgId, member.user.id, "member");
  await db.updateTable("sessions").set({ orgId }).where("userId", "=", member.user.id).execute();
  await owner.client.post("/api/admin/approval-workflows", { name: "Sign-off", triggerType: "prd_publish", approverIds: [owner.user.id] });
  const project = await member.client.post("/api/projects", { name: "Page project" });
  const held = await member.client.patch(`/api/projects/${project.body.id}/status`, { status: "APPROVED" });
  expect(held.status).toBe(202);

  const empty = await member.client.get("/approvals");
  expect(empty.text).toContain("Nothing waits for you");
  expect(empty.text).toContain("Page project");
  const page = await owner.client.get("/approvals");
  expect(page.status).toBe(200);
  expect(page.text).toContain("Waiting for your decision");
  expect(page.text).toContain("Page project");

  const res = await postForm(owner.client, "/approvals", { intent: "approve", approvalId: held.body.approvalRequest.id, comment: "ok" });
  expect(res.status, res.text).toBe(200);
  expect(res.text).toContain("approved");
  const p = await member.client.get(`/api/projects/${project.body.id}`);
  expect(p.body.status).toBe("APPROVED");
});
