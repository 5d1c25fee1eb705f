import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { ORIGIN, TestClient, signedUpClient, uniqueEmail } from "../support/client";
import { joinOrg } from "../support/org";
import { pageText } from "../support/page";

/** Administration pages driven like a browser without JavaScript. */

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: [string, string][]) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const text = pageText;

describe("administration pages", () => {
  it("shows the admin area to owners (with a sidebar link) and a clear message to members", async () => {
    const owner = await signedUpClient({ name: "Olga Owner" });
    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    const home = await owner.client.get("/home");
    expect(home.text).toContain('href="/admin"');
    const page = await owner.client.get("/admin/members");
    expect(page.status).toBe(200);
    expect(text(page)).toContain("Administration");
    expect(text(page)).toContain("Mia Member");
    expect(text(page)).toContain("Transfer ownership");
    const denied = await member.client.get("/admin/members");
    expect(text(denied)).toContain("Administration is for owners and admins");
    expect(text(denied)).not.toContain("Change role");
    expect((await member.client.get("/home")).text).not.toContain('href="/admin"');
    const idx = await owner.client.get("/admin");
    expect(idx.status).toBe(302);
    expect(idx.headers.get("Location")).toBe("/admin/dashboard");
  });

  it("lists every project with assignee, template and date filters on /admin/projects", async () => {
    const owner = await signedUpClient({ name: "Olga Owner" });
    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    const mine = await owner.client.post("/api/projects", { name: "Owner plan" });
    const theirs = await member.client.post("/api/projects", { name: "Member plan" });
    await owner.client.patch(`/api/projects/${theirs.body.id}/assign`, { assignedToId: member.user.id });
    await db.updateTable("projects").set({ createdAt: "2025-06-01T09:00:00.000Z" }).where("id", "=", mine.body.id).execute();
    const all = await owner.client.get("/admin/projects");
    expect(all.status).toBe(200);
    expect(text(all)).toContain("2 projects");
    expect(all.text).toContain('name="assignedToId"');
    expect(all.text).toContain(`value="${member.user.id}"`);
    const byAssignee = text(await owner.client.get(`/admin/projects?assignedToId=${member.user.id}`));
    expect(byAssignee).toContain("Member plan");
    expect(byAssignee).not.toContain("Owner plan");
    const byDate = text(await owner.client.get("/admin/projects?createdFrom=2025-05-01&createdTo=2025-06-30"));
    expect(byDate).toContain("Owner plan");
    expect(byDate).not.toContain("Member plan");
    expect(byDate).toContain("1 project matches your filters");
    expect(byDate).toContain("1 Jun 2025");
    const none = text(await owner.client.get("/admin/projects?createdFrom=2030-01-01"));
    expect(none).toContain("No projects match");
    const bad = text(await owner.client.get("/admin/projects?createdFrom=soon"));
    expect(bad).toContain("were not valid");
    expect(bad).toContain("Owner plan");
    expect(text(await member.client.get("/admin/projects"))).toContain("Administration is for owners and admins");
  });

  it("changes a role and removes a member with reassignment through forms", async () => {
    const owner = await signedUpClient({ name: "Olga Owner" });
    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    const heir = await joinOrg(owner.organization.id, "member", "Hugo Heir");
    const p = await member.client.post("/api/projects", { name: "Mia's spec" });
    const role = await postForm(owner.client, "/admin/members", [
      ["intent", "role"],
      ["userId", member.user.id],
      ["role", "viewer"],
      ["name", "Mia Member"],
    ]);
    expect(role.status, role.text.slice(0, 300)).toBe(302);
    expect(text(await owner.client.get("/admin/members"))).toContain("Mia Member is now a viewer");
    const removed = await postForm(owner.client, "/admin/members", [
      ["intent", "remove"],
      ["userId", member.user.id],
      ["reassignTo", heir.user.id],
      ["name", "Mia Member"],
    ]);
    expect(removed.status).toBe(302);
    const project = await db.selectFrom("projects").select("createdById").where("id", "=", p.body.id).executeTakeFirstOrThrow();
    expect(project.createdById).toBe(heir.user.id);
    const self = await postForm(owner.client, "/admin/members", [
      ["intent", "remove"],
      ["userId", owner.user.id],
    ]);
    expect(self.status).toBe(409);
    expect(text(self)).toContain("transfer ownership first");
  });

  it("invites, lists, resends and cancels from the invitations page; errors keep the input", async () => {
    const owner = await signedUpClient();
    const empty = await owner.client.get("/admin/invitations");
    expect(text(empty)).toContain("No pending invitations");
    const bad = await postForm(owner.client, "/admin/invitations", [
      ["intent", "invite"],
      ["email", "not-an-email"],
      ["role", "member"],
    ]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('value="not-an-email"');
    expect(text(bad)).toContain("Enter a valid e-mail address");
    const email = uniqueEmail("page");
    const sent = await postForm(owner.client, "/admin/invitations", [
      ["intent", "invite"],
      ["email", email],
      ["role", "viewer"],
      ["message", "Hi"],
    ]);
    expect(sent.status, sent.text.slice(0, 300)).toBe(302);
    const list = await owner.client.get("/admin/invitations");
    expect(text(list)).toContain(`Invitation to ${email} created. No e-mail is sent from this server: use Copy link below`);
    const inv = await db.selectFrom("invitations").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(
      (
        await postForm(owner.client, "/admin/invitations", [
          ["intent", "resend"],
          ["invitationId", inv.id],
        ])
      ).status,
    ).toBe(302);
    expect(await db.selectFrom("emails").select("id").where("toAddress", "=", email).execute()).toHaveLength(2);
    expect(
      (
        await postForm(owner.client, "/admin/invitations", [
          ["intent", "cancel"],
          ["invitationId", inv.id],
          ["email", email],
        ])
      ).status,
    ).toBe(302);
    expect(text(await owner.client.get("/admin/invitations"))).toContain("No pending invitations");
  });

  it("accepts an invitation on /invite/:token when signed in with the invited address", async () => {
    const owner = await signedUpClient();
    const invitee = await signedUpClient({ name: "Ivy" });
    await owner.client.post("/api/invitations", { email: invitee.email, role: "member" });
    const mail = await db.selectFrom("emails").select("text").where("toAddress", "=", invitee.email).where("kind", "=", "invitation").executeTakeFirstOrThrow();
    const path = /\/invite\/[A-Za-z0-9_-]+/.exec(mail.text)![0];
    const anon = await new TestClient("10.91.0.1").get(path);
    expect(text(anon)).toContain(`Join ${owner.organization.name}`);
    expect(anon.text).toContain("/sign-in?redirectTo=");
    const outsider = await signedUpClient();
    expect(text(await outsider.client.get(path))).toContain("this invitation is for");
    const page = await invitee.client.get(path);
    expect(text(page)).toContain("Accept invitation");
    const accepted = await postForm(invitee.client, path, []);
    expect(accepted.status, accepted.text.slice(0, 300)).toBe(302);
    expect((await invitee.client.get("/api/auth/me")).body.organization.id).toBe(owner.organization.id);
    expect(text(await invitee.client.get(path))).toContain("no longer valid");
  });

  it("creates, archives and deletes teams, and saves organization settings with nested field errors", async () => {
    const owner = await signedUpClient();
    expect(text(await owner.client.get("/admin/teams"))).toContain("No teams yet");
    const bad = await postForm(owner.client, "/admin/teams", [
      ["intent", "create"],
      ["name", ""],
      ["color", "blue"],
    ]);
    expect(bad.status).toBe(400);
    expect(
      (
        await postForm(owner.client, "/admin/teams", [
          ["intent", "create"],
          ["name", "Design"],
          ["color", "#123456"],
        ])
      ).status,
    ).toBe(302);
    const team = await db.selectFrom("teams").selectAll().where("orgId", "=", owner.organization.id).executeTakeFirstOrThrow();
    const edited = await postForm(owner.client, "/admin/teams", [
      ["intent", "edit"],
      ["teamId", team.id],
      ["name", "Design Systems"],
      ["description", "Tokens"],
      ["color", ""],
    ]);
    expect(edited.status, edited.text.slice(0, 200)).toBe(302);
    expect(await db.selectFrom("teams").select(["name", "description", "color"]).where("id", "=", team.id).executeTakeFirst()).toEqual({
      name: "Design Systems",
      description: "Tokens",
      color: null,
    });
    const badEdit = await postForm(owner.client, "/admin/teams", [
      ["intent", "edit"],
      ["teamId", team.id],
      ["name", ""],
    ]);
    expect(badEdit.status).toBe(400);
    expect(
      (
        await postForm(owner.client, "/admin/teams", [
          ["intent", "archive"],
          ["teamId", team.id],
        ])
      ).status,
    ).toBe(302);
    expect(text(await owner.client.get("/admin/teams"))).toContain("No teams yet");
    expect(text(await owner.client.get("/admin/teams?archived=1"))).toContain("Design Systems");
    expect(
      (
        await postForm(owner.client, "/admin/teams", [
          ["intent", "delete"],
          ["teamId", team.id],
          ["name", "Design"],
        ])
      ).status,
    ).toBe(302);
    expect(await db.selectFrom("teams").select("id").where("id", "=", team.id).execute()).toHaveLength(0);

    const badColour = await postForm(owner.client, "/admin/settings", [
      ["name", "Acme"],
      ["settings.branding.primaryColor", "red"],
    ]);
    expect(badColour.status).toBe(400);
    expect(badColour.text).toContain('id="field-settings.branding.primaryColor-error"');
    const saved = await postForm(owner.client, "/admin/settings", [
      ["name", "Acme Inc"],
      ["settings.branding.primaryColor", "#ff0000"],
      ["settings.branding.companyName", "Acme"],
    ]);
    expect(saved.status).toBe(302);
    const settings = await owner.client.get("/api/organization/settings");
    expect(settings.body).toMatchObject({
      name: "Acme Inc",
      branding: { primaryColor: "#ff0000", companyName: "Acme" },
      notifications: { emailDigest: false },
    });
    expect(text(await owner.client.get("/admin/settings"))).toContain("Organization settings saved");
  });

  it("offers an organization switcher to people in several organizations", async () => {
    const owner = await signedUpClient();
    const multi = await joinOrg(owner.organization.id, "member", "Multi");
    expect((await owner.client.get("/home")).text).not.toContain('id="switch-org"');
    const home = await multi.client.get("/home");
    expect(home.text).toContain('id="switch-org"');
    const switched = await postForm(multi.client, "/admin?index", [
      ["intent", "switch-organization"],
      ["organizationId", multi.organization.id],
    ]);
    expect(switched.status).toBe(302);
    expect((await multi.client.get("/api/auth/me")).body.organization.id).toBe(multi.organization.id);
    const refused = await postForm(multi.client, "/admin?index", [
      ["intent", "switch-organization"],
      ["organizationId", "nope"],
    ]);
    expect(refused.status).toBe(404);
  });
});
