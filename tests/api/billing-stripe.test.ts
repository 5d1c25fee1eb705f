import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { setupStripeMockServer } from "../mocks/stripe";
import { TestClient, signedUpClient } from "../support/client";
import { type Account, expectError, setPlan } from "../support/org";

/** BILLING_PROVIDER=stripe: checkout and portal through the SDK (msw), signed webhooks. */

const SECRET = "whsec_test_secret";
const ENV = {
  BILLING_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: "sk_test_123",
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_PRICE_STARTER_MONTHLY: "price_starter_m",
  STRIPE_PRICE_STARTER_ANNUAL: "price_starter_y",
  STRIPE_PRICE_PRO_MONTHLY: "price_pro_m",
  STRIPE_PRICE_PRO_ANNUAL: "price_pro_y",
};
const { server, mock } = setupStripeMockServer();
const stripe = new Stripe("sk_test_123");

let owner: Account;
const anonymous = () => new TestClient("10.77.0.1");

beforeAll(async () => {
  Object.assign(process.env, ENV);
  resetConfigForTests();
  server.listen();
  owner = await signedUpClient({ name: "Stripe Owner" });
});

afterAll(() => {
  server.close();
  for (const key of Object.keys(ENV)) delete process.env[key];
  resetConfigForTests();
});

function sign(payload: string, timestamp?: number) {
  return stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp });
}

function postEvent(payload: string, signature: string | null) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Origin: "https://stripe.com" };
  if (signature) headers["Stripe-Signature"] = signature;
  return anonymous().call("POST", "/api/billing/webhook", { body: payload, headers });
}

const planOf = async (orgId: string) => (await db.selectFrom("organizations").select("plan").where("id", "=", orgId).executeTakeFirstOrThrow()).plan;

describe("Stripe checkout and portal", () => {
  it("creates a subscription checkout session with the configured price and the org as reference", async () => {
    const res = await owner.client.post("/api/billing/checkout", { planId: "starter", interval: "monthly" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.checkout_url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = mock.requests.find((r) => r.path === "/v1/checkout/sessions")!;
    expect(sent.authorization).toBe("Bearer sk_test_123");
    expect(sent.form).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_starter_m",
      "line_items[0][quantity]": "1",
      client_reference_id: owner.organization.id,
      "metadata[planId]": "starter",
      "metadata[interval]": "monthly",
      customer_email: owner.email,
    });
    const row = await db.selectFrom("billingCheckoutSessions").selectAll().where("orgId", "=", owner.organization.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider: "stripe", externalId: expect.stringMatching(/^cs_test_/), status: "pending" });
  });

  it("answers 409 for the portal before the organization has a customer", async () => {
    const fresh = await signedUpClient();
    expectError(await fresh.client.post("/api/billing/portal", {}), 409, "CONFLICT");
  });
});

describe("POST /api/billing/webhook", () => {
  const completed = (id: string, orgId: string) =>
    JSON.stringify({
      id,
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_test_done",
          object: "checkout.session",
          client_reference_id: orgId,
          customer: "cus_123",
          subscription: "sub_123",
          metadata: { orgId, planId: "starter", interval: "monthly" },
        },
      },
    });

  it("refuses a tampered body, a missing signature and an old signature with 400", async () => {
    const payload = completed("evt_tampered", owner.organization.id);
    const signature = sign(payload);
    const tampered = payload.replace('"starter"', '"pro"');
    expectError(await postEvent(tampered, signature), 400, "VALIDATION_ERROR");
    expectError(await postEvent(payload, null), 400, "VALIDATION_ERROR");
    const old = sign(payload, Math.floor(Date.now() / 1000) - 3600);
    expectError(await postEvent(payload, old), 400, "VALIDATION_ERROR");
    expect(await planOf(owner.organization.id)).toBe("free");
  });

  it("applies checkout.session.completed once, then ignores the replayed event", async () => {
    const orgId = owner.organization.id;
    const payload = completed("evt_completed_1", orgId);
    const first = await postEvent(payload, sign(payload));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false, status: "applied" });
    expect(await planOf(orgId)).toBe("starter");
    const customer = await db.selectFrom("billingCustomers").selectAll().where("orgId", "=", orgId).executeTakeFirstOrThrow();
    expect(customer).toMatchObject({ customerId: "cus_123", subscriptionId: "sub_123" });

    // An admin moves the org elsewhere; the replay must not move it back nor add history.
    await setPlan(orgId, "pro");
    const replay = await postEvent(payload, sign(payload));
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ duplicate: true });
    expect(await planOf(orgId)).toBe("pro");
    const history = await db.selectFrom("billingHistory").selectAll().where("orgId", "=", orgId).execute();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ fromPlan: "free", toPlan: "starter", provider: "stripe", source: "webhook" });
  });

  it("marks our checkout expired on checkout.session.expired, leaving the plan alone", async () => {
    const orgId = owner.organization.id;
    const row = await db.selectFrom("billingCheckoutSessions").selectAll().where("orgId", "=", orgId).where("status", "=", "pending").executeTakeFirstOrThrow();
    const before = await planOf(orgId);
    const payload = JSON.stringify({
      id: "evt_expired_1",
      object: "event",
      type: "checkout.session.expired",
      data: {
        object: {
          id: row.externalId,
          object: "checkout.session",
          client_reference_id: orgId,
          metadata: { orgId, planId: "starter", interval: "monthly", checkoutId: row.id },
        },
      },
    });
    const res = await postEvent(payload, sign(payload));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false, status: "expired" });
    const after = await db.selectFrom("billingCheckoutSessions").select("status").where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(after.status).toBe("expired");
    expect(await planOf(orgId)).toBe(before);
  });

  it("follows customer.subscription.updated (price) and .deleted (back to Free)", async () => {
    const orgId = owner.organization.id;
    const updated = JSON.stringify({
      id: "evt_sub_updated",
      object: "event",
      type: "customer.subscription.updated",
      data: {
        object: {
          id: "sub_123",
          object: "subscription",
          customer: "cus_123",
          status: "active",
          metadata: {},
          items: { data: [{ price: { id: "price_pro_y" } }] },
        },
      },
    });
    await setPlan(orgId, "starter");
    expect((await postEvent(updated, sign(updated))).body.status).toBe("applied");
    expect(await planOf(orgId)).toBe("pro");

    const deleted = JSON.stringify({
      id: "evt_sub_deleted",
      object: "event",
      type: "customer.subscription.deleted",
      data: { object: { id: "sub_123", object: "subscription", customer: "cus_123", status: "canceled", metadata: {}, items: { data: [] } } },
    });
    expect((await postEvent(deleted, sign(deleted))).status).toBe(200);
    expect(await planOf(orgId)).toBe("free");
  });

  it("opens a Stripe portal session for the stored customer", async () => {
    const res = await owner.client.post("/api/billing/portal", {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.link).toMatch(/^https:\/\/billing\.stripe\.com\//);
    const sent = mock.requests.find((r) => r.path === "/v1/billing_portal/sessions")!;
    expect(sent.form).toEqual({ customer: "cus_123", return_url: "http://localhost:3000/admin/billing" });
  });
});
