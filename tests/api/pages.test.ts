import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { TestClient, signedUpClient } from "../support/client";

/**
 * Every HTML page renders on the server (what a browser without JavaScript
 * gets), with the data it should show. The Playwright journeys cover the
 * interactions; this catches loader and render errors in the fast suite.
 */
describe("server-rendered pages", () => {
  it("render for a signed-in owner with a project", async () => {
    await ensureSystemTemplates();
    const { client, organization } = await signedUpClient({ name: "Page Owner" });
    await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", organization.id).execute();

    const home = await client.get("/home");
    expect(home.status).toBe(200);
    expect(home.text).toMatch(/Start a project<\/strong><span class="sr-only"> \(to do\)/);

    const project = await client.post("/api/projects", { name: "Page tour", templateId: "sys-lean-one-pager" });
    const id = project.body.id;
    await client.post(`/api/projects/${id}/prd`, { content: "# Page tour\n\n## Problem\nSlow pages" });
    await client.post(`/api/projects/${id}/comments`, { content: "Looks good", section: "problem" });
    const share = await client.post(`/api/projects/${id}/share`, {});

    const pages: [string, string][] = [
      ["/home", 'Start a project</strong><span class="sr-only"> (done)'],
      ["/projects", "Page tour"],
      ["/projects?status=NOT_A_STATUS&sortBy=bogus", "Page tour"],
      ["/projects/new?templateId=sys-lean-one-pager", "Lean One-Pager"],
      [`/projects/${id}`, "Slow pages"],
      [`/projects/${id}?edit`, "Edit PRD (v1)"],
      [`/projects/${id}/versions`, "History"],
      [`/projects/${id}/files`, "No files yet"],
      [`/projects/${id}/sharing`, share.body.shareUrl],
      [`/projects/${id}/activity`, "created the project"],
      [`/projects/${id}/settings`, "Delete project"],
      ["/search?q=slow", "<mark>"],
      ["/templates", "Standard PRD"],
      ["/templates/sys-technical-api", "[Protected]"],
      ["/templates/new", "New template"],
      ["/settings", "Page Owner"],
      ["/settings/security", "Change password"],
      ["/settings/api-keys", "No API keys yet"],
      ["/settings/ai", "No organization keys yet"],
      ["/settings/memory", "No memories yet"],
      ["/settings/outbox", "Confirm your e-mail address"],
    ];
    for (const [path, expected] of pages) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain(expected);
    }
    expect((await client.get("/projects/does-not-exist")).status).toBe(404);
    expect((await client.get("/admin/submissions")).status).toBe(403);
  });

  it("render publicly: landing, auth pages, marketplace and a share link", async () => {
    await ensureSystemTemplates();
    const { client } = await signedUpClient();
    const project = await client.post("/api/projects", { name: "Shared page" });
    await client.post(`/api/projects/${project.body.id}/prd`, { content: "# Shared\n\nVisible to stakeholders" });
    const share = await client.post(`/api/projects/${project.body.id}/share`, {});
    const anonymous = new TestClient("10.66.0.1");
    const pages: [string, string][] = [
      ["/", "From idea to a PRD your team trusts"],
      ["/sign-in", "Sign in"],
      ["/sign-up", "Create your account"],
      ["/forgot-password", "Reset your password"],
      ["/marketplace", "AI / ML Feature"],
      ["/marketplace/sys-standard-prd", 'property="og:title"'],
      [new URL(share.body.shareUrl).pathname, "Visible to stakeholders"],
    ];
    for (const [path, expected] of pages) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain(expected);
    }
    expect((await anonymous.get("/projects")).status).toBe(302);
    expect((await anonymous.get("/share/not-a-real-token")).status).toBe(401);
    expect((await anonymous.get("/marketplace/not-a-template")).status).toBe(404);
  });
});
