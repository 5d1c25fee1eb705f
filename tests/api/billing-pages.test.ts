import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { type TestClient, TestClient as Client, signedUpClient } from "../support/client";
import { pageText } from "../support/page";
import { joinOrg } from "../support/org";

/** The billing pages without JavaScript: plain GETs and form posts. */

const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, {
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });

const planOf = async (orgId: string) => (await db.selectFrom("organizations").select("plan").where("id", "=", orgId).executeTakeFirstOrThrow()).plan;

describe("billing pages", () => {
  it("shows the public pricing page from the plan table, to visitors and members", async () => {
    const visitor = await new Client("10.77.0.1").get("/pricing");
    expect(visitor.status).toBe(200);
    const text = pageText(visitor);
    expect(text).toContain("Simple pricing for product teams");
    for (const plan of ["Free", "Starter", "Pro", "Enterprise"]) expect(text).toContain(plan);
    expect(text).toContain("$12 / month or $120 / year");
    expect(text).toContain("Free forever");
    expect(text).toContain("Custom pricing");
    expect(visitor.text).toContain('href="/sign-up?redirectTo=%2Fadmin%2Fplans"');
    expect(text).toContain("Start for free");
    // Plain metric labels, not the metric ids or a lower-cased "ai tokens".
    expect(text).toContain("1,000,000 AI tokens per month");
    expect(text).toContain("2 REST API keys");
    expect(text).toContain("No REST API keys");
    expect(text).toContain("3 members");
    expect(text).not.toMatch(/ai tokens|rest api keys|api_keys|document_uploads/);
    const owner = await signedUpClient();
    const signedIn = pageText(await owner.client.get("/pricing"));
    expect(signedIn).toContain("Current plan");
    expect(signedIn).toContain("Choose Pro");
    expect((await new Client("10.77.0.2").get("/")).text).toContain('href="/pricing"');
  });

  it("shows plan cards and starts an annual Starter checkout from the form", async () => {
    const owner = await signedUpClient();
    const page = await owner.client.get("/admin/plans");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Choose Starter");
    expect(page.text).toContain("Contact sales");
    expect(page.text).toMatch(/name="interval" value="annual"/);

    const res = await postForm(owner.client, "/admin/plans", { interval: "annual", planId: "starter" });
    expect(res.status, res.text).toBe(302);
    const location = new URL(res.headers.get("Location")!, "http://localhost:3000");
    expect(location.pathname).toMatch(/^\/billing\/checkout\//);
    const checkout = await db.selectFrom("billingCheckoutSessions").selectAll().where("orgId", "=", owner.organization.id).executeTakeFirstOrThrow();
    expect(checkout).toMatchObject({ planId: "starter", interval: "annual", status: "pending" });

    // Cancelling leaves the plan alone and the checkout unusable.
    const cancel = await postForm(owner.client, location.pathname, { intent: "cancel" });
    expect(cancel.status).toBe(302);
    expect(await planOf(owner.organization.id)).toBe("free");
    const after = await owner.client.get(location.pathname);
    expect(after.text).toContain("This checkout is cancelled");
  });

  it("re-renders the plans page with an error when the current plan is chosen", async () => {
    const owner = await signedUpClient();
    const res = await postForm(owner.client, "/admin/plans", { interval: "monthly", planId: "free" });
    expect(res.status).toBe(409);
    expect(res.text).toContain("already on the Free plan");
  });

  it("shows plan, usage bars with warnings, trend and history on /admin/billing", async () => {
    const owner = await signedUpClient();
    for (let i = 0; i < 9; i++) await owner.client.post("/api/projects", { name: `P${i}` });
    const page = await owner.client.get("/admin/billing");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Free plan");
    expect(page.text).toMatch(/data-metric="projects" data-level="warning"/);
    expect(page.text).toContain("Near limit");
    const text = pageText(page);
    expect(text).toContain("Projects: 90% used (9 of 10).");
    const labels = [
      "AI tokens this month",
      "REST API keys",
      "Members",
      "Templates",
      "Webhooks",
      "Document uploads this month",
      "Transcription minutes this month",
    ];
    for (const label of labels) expect(text).toContain(label);
    expect(text).not.toMatch(/ai tokens|rest api keys|api_keys|transcription_minutes/);
    expect(page.text).toContain("<meter");
    expect(page.text).toContain("No plan changes yet");
    expect(page.text).toContain('href="/admin/plans"');
  });

  it("tells members that billing is for owners and admins", async () => {
    const owner = await signedUpClient();
    const member = await joinOrg(owner.organization.id, "member", "Member");
    const page = await member.client.get("/admin/billing");
    expect(page.text).toContain("Administration is for owners and admins");
    expect(page.text).not.toContain("Billing history");
    const post = await postForm(member.client, "/admin/plans", { interval: "monthly", planId: "pro" });
    expect(post.status).toBe(403);
    expect(await planOf(owner.organization.id)).toBe("free");
  });
});
