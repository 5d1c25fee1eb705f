import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { expectError, joinOrg, setPlan } from "../support/org";

/** Pricing, usage and the local (in-app) checkout. */

describe("GET /api/pricing and /api/pricing/plans (public)", () => {
  it("lists the four tiers with prices, limits and features from the plan table", async () => {
    const { client } = await signedUpClient();
    client.jar.clear();
    const res = await client.get("/api/pricing");
    expect(res.status, res.text).toBe(200);
    const ids = res.body.tiers.map((t: { id: string }) => t.id);
    expect(ids).toEqual(["free", "starter", "pro", "enterprise"]);
    const starter = res.body.tiers[1];
    expect(starter.prices).toEqual({ monthly: 12, annual: 120 });
    expect(starter.limits.api_keys).toBe(2);
    expect(starter.features).toContain("2 REST API keys");
    expect(starter.features).toContain("1,000,000 AI tokens per month");
    expect(res.body.tiers[3]).toMatchObject({ prices: null, contactSales: true });
    expect(res.body.tiers[3].limits.members).toBe(-1);

    const plans = await client.get("/api/pricing/plans");
    expect(plans.status).toBe(200);
    expect(plans.body.plans).toHaveLength(4);
  });
});

describe("GET /api/usage", () => {
  it("returns the eight metrics with current, limit and percentage, and warns at 80% and 100%", async () => {
    const owner = await signedUpClient();
    const orgId = owner.organization.id;
    for (let i = 0; i < 8; i++) {
      const p = await owner.client.post("/api/projects", { name: `Project ${i}` });
      expect(p.status, p.text).toBe(201);
    }
    await joinOrg(orgId, "member", "Second");
    await joinOrg(orgId, "member", "Third");
    const res = await owner.client.get("/api/usage");
    expect(res.status, res.text).toBe(200);
    expect(res.body.plan).toEqual({ name: "Free", tier: "free" });
    expect(Object.keys(res.body.usage).sort()).toEqual([
      "ai_tokens",
      "api_keys",
      "document_uploads",
      "members",
      "projects",
      "templates",
      "transcription_minutes",
      "webhooks",
    ]);
    expect(res.body.usage.projects).toEqual({ current: 8, limit: 10, percentageUsed: 80 });
    expect(res.body.usage.members).toEqual({ current: 3, limit: 3, percentageUsed: 100 });
    expect(res.body.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ metric: "projects", level: "warning", percentage: 80 }),
        expect.objectContaining({ metric: "members", level: "critical", percentage: 100 }),
      ]),
    );
    expect(res.body.warnings.find((w: { metric: string }) => w.metric === "api_keys")).toBeUndefined();

    await setPlan(orgId, "enterprise");
    const unlimited = await owner.client.get("/api/usage");
    expect(unlimited.body.usage.projects).toEqual({ current: 8, limit: -1, percentageUsed: 0 });
    expect(unlimited.body.warnings).toEqual([]);
  });

  it("enforces the projects limit on creation", async () => {
    const owner = await signedUpClient();
    for (let i = 0; i < 10; i++) expect((await owner.client.post("/api/projects", { name: `P${i}` })).status).toBe(201);
    expectError(await owner.client.post("/api/projects", { name: "One too many" }), 403, "LIMIT_REACHED");
  });

  it("needs a session", async () => {
    const { client } = await signedUpClient();
    client.jar.clear();
    expectError(await client.get("/api/usage"), 401, "UNAUTHORIZED");
  });
});

describe("local checkout", () => {
  it("upgrades a Free organization to Starter once the owner confirms, after which API keys can be created", async () => {
    const owner = await signedUpClient();
    expectError(await owner.client.post("/api/admin/rest-api-keys", { name: "ci" }), 403, "LIMIT_REACHED");

    const res = await owner.client.post("/api/billing/checkout", { planId: "starter", interval: "annual" });
    expect(res.status, res.text).toBe(200);
    const url = new URL(res.body.checkout_url);
    expect(url.pathname).toMatch(/^\/billing\/checkout\/[0-9a-f-]{36}$/);

    const page = await owner.client.get(url.pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Starter");
    expect(page.text).toContain("Confirm");

    const confirm = await owner.client.call("POST", url.pathname, {
      body: new URLSearchParams({ intent: "confirm" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(confirm.status, confirm.text).toBe(302);
    expect(confirm.headers.get("Location")).toContain("/admin/billing");

    const org = await db.selectFrom("organizations").select("plan").where("id", "=", owner.organization.id).executeTakeFirstOrThrow();
    expect(org.plan).toBe("starter");
    const key = await owner.client.post("/api/admin/rest-api-keys", { name: "ci" });
    expect(key.status, key.text).toBe(201);

    const overview = await owner.client.get("/api/admin/billing");
    expect(overview.status, overview.text).toBe(200);
    expect(overview.body.plan).toMatchObject({ id: "starter", interval: "annual", provider: "local" });
    expect(overview.body.history[0]).toMatchObject({ fromPlan: "free", toPlan: "starter", amountCents: 12000, source: "checkout" });
    expect(overview.body.usage.api_keys).toEqual({ current: 1, limit: 2, percentageUsed: 50 });
    expect(overview.body.trend.at(-1)).toMatchObject({ month: new Date().toISOString().slice(0, 7) });
    const audit = await db
      .selectFrom("auditLogs")
      .select("action")
      .where("orgId", "=", owner.organization.id)
      .where("action", "=", "billing.plan_changed")
      .execute();
    expect(audit).toHaveLength(1);

    // The same checkout cannot be confirmed twice.
    const again = await owner.client.call("POST", url.pathname, {
      body: new URLSearchParams({ intent: "confirm" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain("completed");
  });

  it("refuses the current plan, Enterprise and bad bodies", async () => {
    const owner = await signedUpClient();
    expectError(await owner.client.post("/api/billing/checkout", { planId: "free", interval: "monthly" }), 409, "CONFLICT");
    expectError(await owner.client.post("/api/billing/checkout", { planId: "enterprise", interval: "monthly" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/billing/checkout", { planId: "gold", interval: "monthly" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/billing/checkout", { planId: "pro", interval: "weekly" }), 400, "VALIDATION_ERROR");
  });

  it("forbids members (403) and lets an admin start but not confirm", async () => {
    const owner = await signedUpClient();
    const member = await joinOrg(owner.organization.id, "member", "Mem");
    expectError(await member.client.post("/api/billing/checkout", { planId: "starter", interval: "monthly" }), 403, "FORBIDDEN");
    expectError(await member.client.post("/api/billing/portal", {}), 403, "FORBIDDEN");
    expectError(await member.client.get("/api/admin/billing"), 403, "FORBIDDEN");

    const admin = await joinOrg(owner.organization.id, "admin", "Adm");
    const res = await admin.client.post("/api/billing/checkout", { planId: "pro", interval: "monthly" });
    expect(res.status, res.text).toBe(200);
    const path = new URL(res.body.checkout_url).pathname;
    const confirm = await admin.client.call("POST", path, {
      body: new URLSearchParams({ intent: "confirm" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(confirm.status).toBe(403);
    const org = await db.selectFrom("organizations").select("plan").where("id", "=", owner.organization.id).executeTakeFirstOrThrow();
    expect(org.plan).toBe("free");

    // Another organization's owner cannot see it.
    const stranger = await signedUpClient();
    expect((await stranger.client.get(path)).status).toBe(404);
  });

  it("points the portal link at the admin billing page", async () => {
    const owner = await signedUpClient();
    const res = await owner.client.post("/api/billing/portal", {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.link).toBe("http://localhost:3000/admin/billing");
  });
});
