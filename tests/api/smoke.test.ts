import { describe, expect, it } from "vitest";
import { TestClient, signedUpClient } from "../support/client";

describe("smoke", () => {
  it("health", async () => {
    const c = new TestClient();
    const res = await c.get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok" });
    expect(res.headers.get("API-Version")).toBe("1");
  });
  it("register + me", async () => {
    const { client, email } = await signedUpClient();
    const me = await client.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
  });
});
