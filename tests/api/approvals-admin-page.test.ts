import { expect, it } from "vitest";
import { db } from "~/db.server";
import { ORIGIN, signedUpClient, type TestClient } from "../support/client";
import { joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

/** /admin/approvals driven like a browser without JavaScript. */

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, fields: [string, string][]) =>
  client.call("POST", "/admin/approvals", { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const text = pageText;
const workflows = (orgId: string) => db.selectFrom("approvalWorkflows").selectAll().where("orgId", "=", orgId).execute();

it("shows the upgrade message below Enterprise and refuses members", async () => {
  const owner = await signedUpClient({ name: "Free Owner" });
  const member = await joinOrg(owner.organization.id, "member", "Free Member");
  const page = await owner.client.get("/admin/approvals");
  expect(page.status).toBe(200);
  expect(text(page)).toContain("Approval workflows are an Enterprise feature");
  expect(page.text).toContain('href="/admin/plans"');
  expect(page.text).not.toContain('name="triggerType"');
  // Posting anyway is refused by the domain (plan check).
  const post = await postForm(owner.client, [
    ["intent", "create"],
    ["name", "X"],
    ["triggerType", "prd_publish"],
    ["approverIds", owner.user.id],
  ]);
  expect(post.status).toBe(403);
  expect(await workflows(owner.organization.id)).toHaveLength(0);

  await setPlan(owner.organization.id, "enterprise");
  const denied = await member.client.get("/admin/approvals");
  expect(text(denied)).toContain("Administration is for owners and admins");
  expect(denied.text).not.toContain('name="triggerType"');
  const memberPost = await postForm(member.client, [
    ["intent", "create"],
    ["name", "X"],
    ["triggerType", "prd_publish"],
    ["approverIds", member.user.id],
  ]);
  expect(memberPost.status).toBe(403);
  expect(await workflows(owner.organization.id)).toHaveLength(0);
});

it("lists, creates, edits, toggles and deletes workflows for an Enterprise owner", async () => {
  const owner = await signedUpClient({ name: "Ent Owner" });
  const orgId = owner.organization.id;
  await setPlan(orgId, "enterprise");
  const ada = await joinOrg(orgId, "admin", "Ada Approver");
  const pia = await joinOrg(orgId, "member", "Pia Approver");

  const empty = await owner.client.get("/admin/approvals");
  expect(empty.status).toBe(200);
  expect(text(empty)).toContain("No approval workflows yet");
  expect(empty.text).toContain('href="/admin/approvals"'); // the admin tab
  expect(text(empty)).toContain("Pia Approver");
  expect(text(empty)).toContain("Publishing a template");

  // Field errors come back next to their fields with the input kept.
  const bad = await postForm(owner.client, [
    ["intent", "create"],
    ["name", "Legal"],
    ["triggerType", "prd_publish"],
    ["requiredApprovals", "1"],
  ]);
  expect(bad.status).toBe(400);
  expect(bad.text).toContain('id="field-approverIds-error"');
  expect(bad.text).toContain('value="Legal"');
  const tooMany = await postForm(owner.client, [
    ["intent", "create"],
    ["name", "Legal"],
    ["triggerType", "prd_publish"],
    ["approverIds", ada.user.id],
    ["requiredApprovals", "2"],
    ["isActive", "on"],
  ]);
  expect(tooMany.status).toBe(400);
  expect(tooMany.text).toContain('id="field-requiredApprovals-error"');
  expect(text(tooMany)).toContain("cannot exceed the number of approvers");
  expect(await workflows(orgId)).toHaveLength(0);

  const created = await postForm(owner.client, [
    ["intent", "create"],
    ["name", "Legal sign-off"],
    ["triggerType", "project_delete"],
    ["approverIds", ada.user.id],
    ["approverIds", pia.user.id],
    ["requiredApprovals", "2"],
    ["allowSelfApproval", "on"],
    ["isActive", "on"],
  ]);
  expect(created.status, created.text.slice(0, 300)).toBe(302);
  const [wf] = await workflows(orgId);
  expect(wf).toMatchObject({ name: "Legal sign-off", triggerType: "project_delete", requiredApprovals: 2, allowSelfApproval: 1, isActive: 1 });
  expect(JSON.parse(wf!.approverIds)).toEqual([ada.user.id, pia.user.id]);
  const listedPage = await owner.client.get("/admin/approvals");
  const listed = text(listedPage);
  expect(listed).toContain("Workflow “Legal sign-off” created.");
  expect(listed).toContain("Legal sign-off Deleting a project Ada Approver, Pia Approver 2 Allowed Active");
  expect(listedPage.text).toContain('aria-label="Deactivate Legal sign-off"');

  const badEdit = await postForm(owner.client, [
    ["intent", "update"],
    ["workflowId", wf!.id],
    ["requiredApprovals", "3"],
  ]);
  expect(badEdit.status).toBe(400);
  expect(badEdit.text).toContain(`id="required-${wf!.id}-error"`);
  const edit = await postForm(owner.client, [
    ["intent", "update"],
    ["workflowId", wf!.id],
    ["requiredApprovals", "1"],
  ]);
  expect(edit.status).toBe(302);
  const off = await postForm(owner.client, [
    ["intent", "toggle"],
    ["workflowId", wf!.id],
    ["isActive", "false"],
  ]);
  expect(off.status).toBe(302);
  expect((await workflows(orgId))[0]).toMatchObject({ requiredApprovals: 1, isActive: 0 });
  const afterToggle = await owner.client.get("/admin/approvals");
  expect(text(afterToggle)).toContain("Workflow “Legal sign-off” deactivated.");
  expect(text(afterToggle)).toContain("Legal sign-off Deleting a project Ada Approver, Pia Approver 1 Allowed Inactive");
  expect(afterToggle.text).toContain('aria-label="Activate Legal sign-off"');

  // An inactive workflow holds nothing.
  const project = await pia.client.post("/api/projects", { name: "Free to go" });
  expect((await pia.client.delete(`/api/projects/${project.body.id}`)).status).toBe(200);

  const del = await postForm(owner.client, [
    ["intent", "delete"],
    ["workflowId", wf!.id],
    ["name", "Legal sign-off"],
  ]);
  expect(del.status).toBe(302);
  expect(await workflows(orgId)).toHaveLength(0);
  expect(text(await owner.client.get("/admin/approvals"))).toContain("No approval workflows yet");
});
