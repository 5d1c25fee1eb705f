import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod/v4";
import { db } from "~/db.server";
import { setFlagResolver } from "~/domain/flags/flags.server";
import { endpoint } from "~/http/api/api.server";
import { contract } from "~/http/api/contract";
import { setEnv } from "../support/ai";
import { ORIGIN, signedUpClient } from "../support/client";

/**
 * The wrapper's declarative guards (plan, feature flag, AI rate) exercised
 * through synthetic contracts, since the endpoints that use them arrive
 * with later areas.
 */

async function call(ep: ReturnType<typeof endpoint>, cookie: string, init: RequestInit = {}) {
  const request = new Request(`${ORIGIN}/api/test`, { ...init, headers: { Cookie: cookie, ...(init.headers ?? {}) } });
  const res = await ep.run({ request, params: {}, context: { ip: "10.9.9.9" } });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function session() {
  const { client, organization } = await signedUpClient();
  const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  return { cookie, orgId: organization.id as string };
}

afterEach(() => setFlagResolver(() => true));

describe("API wrapper guards", () => {
  it("refuses callers below the contract's plan with 403 PLAN_UPGRADE_REQUIRED", async () => {
    const { cookie, orgId } = await session();
    const ep = endpoint(contract({ method: "GET", path: "/api/test", tag: "t", summary: "Scheduled exports", auth: "user", plan: "pro" }), () => ({
      ok: true,
    }));
    const refused = await call(ep, cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "PLAN_UPGRADE_REQUIRED", requiredPlan: "pro" });
    await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", orgId).execute();
    expect((await call(ep, cookie)).body).toEqual({ ok: true });
  });

  it("refuses a disabled feature flag with 403 FEATURE_DISABLED", async () => {
    const { cookie } = await session();
    const seen: string[] = [];
    setFlagResolver((_actor, key) => {
      seen.push(key);
      return key !== "export_pdf";
    });
    const gated = (flag: string) => endpoint(contract({ method: "GET", path: "/api/test", tag: "t", summary: "x", auth: "user", flag }), () => ({ ok: true }));
    const off = await call(gated("export_pdf"), cookie);
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ code: "FEATURE_DISABLED", flag: "export_pdf" });
    expect((await call(gated("export_docx"), cookie)).status).toBe(200);
    expect(seen).toEqual(["export_pdf", "export_docx"]);
  });

  it("counts AI requests per user against the plan rate (free: 10 a minute)", async () => {
    // Only requests that would reach a provider count (the offline drafter is free): a platform key is configured.
    setEnv({ OPENAI_API_KEY: "sk-platform-guards-aaaaaaaaaaaaaa" });
    onTestFinished(() => setEnv({ OPENAI_API_KEY: undefined }));
    const { cookie } = await session();
    const ep = endpoint(contract({ method: "POST", path: "/api/test", tag: "t", summary: "x", auth: "user", rateLimit: "ai" }), () => ({ ok: true }));
    const post = { method: "POST", headers: { Origin: ORIGIN } };
    for (let i = 0; i < 10; i++) {
      const res = await call(ep, cookie, post);
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBe("10");
      expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(9 - i));
    }
    const limited = await call(ep, cookie, post);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another user has a separate budget.
    const other = await session();
    expect((await call(ep, other.cookie, post)).status).toBe(200);
  });

  it("does not count requests the offline drafter answers", async () => {
    const { cookie } = await session();
    const ep = endpoint(contract({ method: "POST", path: "/api/test", tag: "t", summary: "x", auth: "user", rateLimit: "ai" }), () => ({ ok: true }));
    for (let i = 0; i < 12; i++) {
      const res = await call(ep, cookie, { method: "POST", headers: { Origin: ORIGIN } });
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
    }
  });

  it("checks roles before validating the body", async () => {
    const { cookie, orgId } = await session();
    await db.updateTable("memberships").set({ role: "viewer" }).where("orgId", "=", orgId).execute();
    const ep = endpoint(
      contract({
        method: "POST",
        path: "/api/test",
        tag: "t",
        summary: "x",
        auth: "user",
        roles: ["owner", "admin"],
        body: z.object({ name: z.string() }),
      }),
      () => ({ ok: true }),
    );
    const res = await call(ep, cookie, { method: "POST", headers: { Origin: ORIGIN, "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });
});
