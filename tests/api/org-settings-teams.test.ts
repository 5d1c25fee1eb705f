import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg } from "../support/org";

const SETTINGS = "/api/organization/settings";
const TEAMS = "/api/admin/teams";

let owner: Account;
let admin: Account;
let member: Account;
let outsider: Account;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  admin = await joinOrg(owner.organization.id, "admin", "Adam Admin");
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  outsider = await signedUpClient();
});

describe("organization settings", () => {
  it("returns name, branding, notifications and plan to any member", async () => {
    const res = await member.client.get(SETTINGS);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: owner.organization.name,
      branding: { primaryColor: expect.stringMatching(/^#/), logoUrl: null },
      notifications: { emailDigest: true },
      plan: { id: "free", name: "Free" },
    });
  });

  it("lets admins change name, branding and emailDigest, keeping other settings keys", async () => {
    await db
      .updateTable("organizations")
      .set({ settings: JSON.stringify({ domain: { name: "x.example" } }) })
      .where("id", "=", owner.organization.id)
      .execute();
    const res = await admin.client.patch(SETTINGS, {
      name: "Acme Product",
      settings: { branding: { primaryColor: "#112233", companyName: "Acme" }, notifications: { emailDigest: false } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Acme Product", branding: { primaryColor: "#112233", companyName: "Acme" }, notifications: { emailDigest: false } });
    const again = await member.client.get(SETTINGS);
    expect(again.body.notifications.emailDigest).toBe(false);
    const row = await db.selectFrom("organizations").select("settings").where("id", "=", owner.organization.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.settings).domain).toEqual({ name: "x.example" });
    const audit = await db
      .selectFrom("auditLogs")
      .selectAll()
      .where("action", "=", "organization.settings_updated")
      .where("orgId", "=", owner.organization.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect((await outsider.client.get(SETTINGS)).body.name).not.toBe("Acme Product");
  });

  it("names the nested path in validation errors and refuses members (403)", async () => {
    const bad = await owner.client.patch(SETTINGS, { settings: { notifications: { emailDigest: "yes" } } });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details.map((d: any) => d.path)).toContain("settings.notifications.emailDigest");
    const color = await owner.client.patch(SETTINGS, { settings: { branding: { primaryColor: "red" } } });
    expect(color.body.details.map((d: any) => d.path)).toContain("settings.branding.primaryColor");
    expectError(await owner.client.patch(SETTINGS, { name: "" }), 400, "VALIDATION_ERROR");
    expectError(await member.client.patch(SETTINGS, { name: "Hijack" }), 403, "FORBIDDEN");
  });
});

describe("teams", () => {
  it("creates, lists, updates, archives and deletes, with validation and roles", async () => {
    const created = await admin.client.post(TEAMS, { name: "Payments", description: "Checkout squad", color: "#ff8800" });
    expect(created.status, created.text).toBe(201);
    const team = created.body.team;
    expect(team).toMatchObject({ name: "Payments", description: "Checkout squad", color: "#ff8800", isArchived: false });
    const bad = await admin.client.post(TEAMS, { name: "", description: "x".repeat(501), color: "orange" });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details.map((d: any) => d.path).sort()).toEqual(["color", "description", "name"]);
    expectError(await admin.client.post(TEAMS, { name: "x".repeat(101) }), 400, "VALIDATION_ERROR");
    expectError(await member.client.post(TEAMS, { name: "Rogue" }), 403, "FORBIDDEN");

    const renamed = await owner.client.patch(`${TEAMS}/${team.id}`, { name: "Payments Core" });
    expect(renamed.body.team.name).toBe("Payments Core");
    const archived = await owner.client.patch(`${TEAMS}/${team.id}`, { isArchived: true });
    expect(archived.body.team.isArchived).toBe(true);
    expect((await member.client.get(TEAMS)).body.teams).toEqual([]);
    const all = await member.client.get(`${TEAMS}?includeArchived=true`);
    expect(all.body.teams.map((t: any) => t.id)).toEqual([team.id]);
    expect((await member.client.get(`${TEAMS}?includeArchived=false`)).body.teams).toEqual([]);

    expectError(await outsider.client.patch(`${TEAMS}/${team.id}`, { name: "Mine" }), 404, "NOT_FOUND");
    expectError(await outsider.client.delete(`${TEAMS}/${team.id}`), 404, "NOT_FOUND");
    expectError(await member.client.delete(`${TEAMS}/${team.id}`), 403, "FORBIDDEN");
    expect((await owner.client.delete(`${TEAMS}/${team.id}`)).body).toEqual({ success: true });
    expect((await owner.client.get(`${TEAMS}?includeArchived=true`)).body.teams).toEqual([]);
    expectError(await owner.client.delete(`${TEAMS}/${team.id}`), 404, "NOT_FOUND");
    const actions = (await db.selectFrom("auditLogs").select("action").where("targetId", "=", team.id).execute()).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["team.created", "team.updated", "team.archived", "team.deleted"]));
  });
});
