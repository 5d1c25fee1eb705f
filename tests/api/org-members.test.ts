import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg } from "../support/org";

const MEMBERS = "/api/organization/members";

async function events(name: string, orgId: string) {
  const rows = await db.selectFrom("events").selectAll().where("name", "=", name).where("orgId", "=", orgId).execute();
  return rows.map((r) => JSON.parse(r.data) as Record<string, any>);
}
async function audits(action: string, orgId: string) {
  return db.selectFrom("auditLogs").selectAll().where("action", "=", action).where("orgId", "=", orgId).execute();
}

let owner: Account;
let admin: Account;
let member: Account;
let viewer: Account;
let outsider: Account;
let orgId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  orgId = owner.organization.id;
  admin = await joinOrg(orgId, "admin", "Adam Admin");
  member = await joinOrg(orgId, "member", "Mia Member");
  viewer = await joinOrg(orgId, "viewer", "Vic Viewer");
  outsider = await signedUpClient({ name: "Otto Outsider" });
});

describe("members list", () => {
  it("lists members with roles and user data, to every member, never another organization's", async () => {
    const res = await viewer.client.get(MEMBERS);
    expect(res.status, res.text).toBe(200);
    const byEmail = Object.fromEntries(res.body.members.map((m: any) => [m.user.email, m]));
    expect(Object.keys(byEmail)).toHaveLength(4);
    expect(byEmail[owner.email]).toMatchObject({ id: owner.user.id, role: "owner", user: { name: "Olga Owner" } });
    expect(byEmail[viewer.email].isYou).toBe(true);
    const other = await outsider.client.get(MEMBERS);
    expect(other.body.members.map((m: any) => m.user.email)).toEqual([outsider.email]);
  });
});

describe("role changes", () => {
  it("lets admins change roles, emits member.role_changed and audits it", async () => {
    const target = await joinOrg(orgId, "member", "Rita Role");
    const res = await admin.client.patch(`${MEMBERS}/${target.user.id}`, { role: "viewer" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.member).toEqual({ id: target.user.id, role: "viewer" });
    const evs = await events("member.role_changed", orgId);
    expect(evs).toContainEqual(expect.objectContaining({ userId: target.user.id, role: "viewer", previousRole: "member" }));
    expect((await audits("member.role_changed", orgId)).some((a) => a.targetId === target.user.id)).toBe(true);
  });

  it("refuses members and viewers (403), unknown roles (400) and other organizations' users (404)", async () => {
    expectError(await member.client.patch(`${MEMBERS}/${viewer.user.id}`, { role: "admin" }), 403, "FORBIDDEN");
    expectError(await viewer.client.patch(`${MEMBERS}/${member.user.id}`, { role: "admin" }), 403, "FORBIDDEN");
    const bad = await admin.client.patch(`${MEMBERS}/${member.user.id}`, { role: "owner" });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details[0].path).toBe("role");
    expectError(await admin.client.patch(`${MEMBERS}/${outsider.user.id}`, { role: "viewer" }), 404, "NOT_FOUND");
    expectError(await outsider.client.patch(`${MEMBERS}/${member.user.id}`, { role: "viewer" }), 404, "NOT_FOUND");
  });

  it("stops an admin from touching an owner and anyone from demoting the last owner", async () => {
    expectError(await admin.client.patch(`${MEMBERS}/${owner.user.id}`, { role: "member" }), 403, "FORBIDDEN");
    expectError(await admin.client.delete(`${MEMBERS}/${owner.user.id}`), 403, "FORBIDDEN");
    expectError(await owner.client.patch(`${MEMBERS}/${owner.user.id}`, { role: "admin" }), 409, "OWNERSHIP_TRANSFER_REQUIRED");
    expectError(await owner.client.delete(`${MEMBERS}/${owner.user.id}`), 409, "OWNERSHIP_TRANSFER_REQUIRED");
    const me = (await owner.client.get(MEMBERS)).body.members.find((m: any) => m.id === owner.user.id);
    expect(me.role).toBe("owner");
  });
});

describe("removal", () => {
  it("removes a member, keeps their projects and reassigns them on request", async () => {
    const leaver = await joinOrg(orgId, "member", "Leo Leaver");
    const p = await leaver.client.post("/api/projects", { name: "Leaver's project" });
    expect(p.status, p.text).toBe(201);
    const bad = await admin.client.delete(`${MEMBERS}/${leaver.user.id}?reassignTo=${outsider.user.id}`);
    expectError(bad, 400, "VALIDATION_ERROR");
    const res = await admin.client.delete(`${MEMBERS}/${leaver.user.id}?reassignTo=${member.user.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, reassigned: 1 });
    const project = await db.selectFrom("projects").selectAll().where("id", "=", p.body.id).executeTakeFirstOrThrow();
    expect(project.orgId).toBe(orgId);
    expect(project.createdById).toBe(member.user.id);
    expect((await events("member.removed", orgId)).some((e) => e.userId === leaver.user.id && e.reassignedTo === member.user.id)).toBe(true);
    expect((await audits("member.removed", orgId)).some((a) => a.targetId === leaver.user.id)).toBe(true);
    // The removed user's session now lands in their own organization.
    const list = await leaver.client.get(MEMBERS);
    expect(list.body.members.map((m: any) => m.user.email)).toEqual([leaver.email]);
  });

  it("refuses removal by members and viewers but lets anyone leave", async () => {
    const quitter = await joinOrg(orgId, "viewer", "Quinn Quitter");
    expectError(await member.client.delete(`${MEMBERS}/${quitter.user.id}`), 403, "FORBIDDEN");
    expectError(await quitter.client.delete(`${MEMBERS}/${member.user.id}`), 403, "FORBIDDEN");
    const res = await quitter.client.delete(`${MEMBERS}/${quitter.user.id}`);
    expect(res.status, res.text).toBe(200);
    expect((await audits("member.left", orgId)).some((a) => a.targetId === quitter.user.id)).toBe(true);
  });
});

describe("ownership transfer", () => {
  it("is owner only and swaps the roles, emitting member.role_changed", async () => {
    const team = await signedUpClient({ name: "Tara Transfer" });
    const heir = await joinOrg(team.organization.id, "member", "Hugo Heir");
    const adminB = await joinOrg(team.organization.id, "admin", "Ada B");
    expectError(await adminB.client.post("/api/organization/transfer-ownership", { userId: heir.user.id }), 403, "FORBIDDEN");
    expectError(await team.client.post("/api/organization/transfer-ownership", { userId: outsider.user.id }), 404, "NOT_FOUND");
    expectError(await team.client.post("/api/organization/transfer-ownership", { userId: team.user.id }), 400, "VALIDATION_ERROR");
    const res = await team.client.post("/api/organization/transfer-ownership", { userId: heir.user.id });
    expect(res.status, res.text).toBe(200);
    const roles = Object.fromEntries((await heir.client.get(MEMBERS)).body.members.map((m: any) => [m.id, m.role]));
    expect(roles[heir.user.id]).toBe("owner");
    expect(roles[team.user.id]).toBe("admin");
    const evs = await events("member.role_changed", team.organization.id);
    expect(evs.map((e) => [e.userId, e.role])).toEqual(
      expect.arrayContaining([
        [heir.user.id, "owner"],
        [team.user.id, "admin"],
      ]),
    );
    // The former owner is now an admin and may not change the new owner.
    expectError(await team.client.patch(`${MEMBERS}/${heir.user.id}`, { role: "member" }), 403, "FORBIDDEN");
  });
});

describe("switching organization", () => {
  it("lists the caller's organizations and moves the session to one they belong to", async () => {
    const multi = await signedUpClient({ name: "Multi Org" });
    await db
      .insertInto("memberships")
      .values({ id: `m-${multi.user.id}`, orgId, userId: multi.user.id, role: "viewer", createdAt: new Date().toISOString() })
      .execute();
    const list = await multi.client.get("/api/organization/switch");
    expect(list.body.organizations.map((o: any) => [o.id, o.current])).toEqual([
      [multi.organization.id, true],
      [orgId, false],
    ]);
    expectError(await multi.client.post("/api/organization/switch", { organizationId: outsider.organization.id }), 404, "NOT_FOUND");
    const res = await multi.client.post("/api/organization/switch", { organizationId: orgId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.organization).toMatchObject({ id: orgId, role: "viewer" });
    const me = await multi.client.get("/api/auth/me");
    expect(me.body.organization.id).toBe(orgId);
  });
});
