import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { signedUpClient } from "../support/client";
import { pageText } from "../support/page";
import { joinOrg, setPlan } from "../support/org";

registerBackgroundWork();

/**
 * Finding 9: a member mentioning a viewer on a project the viewer cannot read
 * sent the viewer the project's name and the comment. Only readers are
 * notified; the author is told who was not.
 */

const drain = async () => {
  while ((await runDueJobs()) > 0);
};

describe("mentions of people who cannot read the project", () => {
  it("notify no one outside the project's readers, by app or mail, and tell the author; once shared, they do", async () => {
    const owner = await signedUpClient({ name: "Owen Owner" });
    await setPlan(owner.organization.id, "pro");
    const member = await joinOrg(owner.organization.id, "member", "Mel Member");
    const viewer = await joinOrg(owner.organization.id, "viewer", "Vera Viewer");
    const projectId = (await member.client.post("/api/projects", { name: "Project Nightjar" })).body.id as string;

    const res = await member.client.post(`/api/projects/${projectId}/comments`, { content: `@${viewer.email} the Nightjar launch date moved` });
    expect(res.status, res.text).toBe(201);
    expect(res.body.notNotified).toEqual([{ id: viewer.user.id, name: "Vera Viewer" }]);
    expect(res.body.comment.mentions).toEqual([]);
    await drain();
    const notes = await viewer.client.get("/api/notifications");
    expect(JSON.stringify(notes.body)).not.toContain("Nightjar");
    const mails = await db.selectFrom("emails").select(["subject", "text"]).where("toAddress", "=", viewer.email).execute();
    expect(JSON.stringify(mails)).not.toContain("Nightjar");

    // The same through the page form (JavaScript off): the confirmation names who was not notified.
    const form = new URLSearchParams({ intent: "comment-create", content: `cc @${viewer.email}` });
    const page = await member.client.call("POST", `/projects/${projectId}?index`, {
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(pageText(page)).toContain("Vera Viewer was not notified: they cannot open this project.");

    // Shared with the viewer, the next mention reaches them.
    expect((await member.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" })).status).toBe(201);
    const again = await member.client.post(`/api/projects/${projectId}/comments`, { content: `@${viewer.email} now you can see it` });
    expect(again.body.notNotified).toEqual([]);
    expect(again.body.comment.mentions).toEqual([{ id: viewer.user.id, name: "Vera Viewer" }]);
    await drain();
    const after = await viewer.client.get("/api/notifications");
    expect(after.body.notifications.map((n: { title: string }) => n.title)).toContain("Mel Member mentioned you on Project Nightjar");
  });
});
