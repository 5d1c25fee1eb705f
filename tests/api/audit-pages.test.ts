import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

describe("admin pages: audit log and IP allowlist", () => {
  it("/admin/audit lists filtered events with summary and download links keeping the filters", async () => {
    const { client, organization } = await signedUpClient();
    await db
      .insertInto("auditLogs")
      .values({
        id: crypto.randomUUID(),
        orgId: organization.id,
        actorId: null,
        actorEmail: "eve@example.com",
        action: "auth.account_locked",
        category: "auth",
        severity: "critical",
        targetType: null,
        targetId: null,
        ip: "192.0.2.1",
        userAgent: null,
        metadata: "{}",
        createdAt: "2024-05-01T10:00:00.000Z",
      })
      .execute();
    const page = await client.get("/admin/audit?severity=critical");
    expect(page.status).toBe(200);
    expect(page.text).toContain("auth.account_locked");
    expect(page.text).toContain("192.0.2.1");
    expect(page.text).not.toContain("user.registered");
    expect(page.text).toContain("/api/admin/audit-logs/export?severity=critical&amp;format=csv");
    expect(page.text).toContain("/api/admin/audit-logs/export?severity=critical&amp;format=json");
    const none = await client.get("/admin/audit?category=nothing-here");
    expect(none.text).toContain("No events match");
  });

  it("/admin/ip-allowlist: upgrade message below Enterprise; add and remove by form on Enterprise", async () => {
    const { client, organization } = await signedUpClient();
    const pro = await client.get("/admin/ip-allowlist");
    expect(pro.status).toBe(200);
    expect(pro.text).toContain("Enterprise feature");
    expect(pro.text).toContain(client.ip);

    await db.updateTable("organizations").set({ plan: "enterprise" }).where("id", "=", organization.id).execute();
    const empty = await client.get("/admin/ip-allowlist");
    expect(empty.text).toContain("No entries");

    const locked = await client.call("POST", "/admin/ip-allowlist", { body: new URLSearchParams({ intent: "add", cidr: "198.51.100.0/24" }), headers: FORM });
    expect(locked.status).toBe(409);
    const bad = await client.call("POST", "/admin/ip-allowlist", { body: new URLSearchParams({ intent: "add", cidr: "nope" }), headers: FORM });
    expect(bad.status).toBe(400);

    const added = await client.call("POST", "/admin/ip-allowlist", {
      body: new URLSearchParams({ intent: "add", cidr: client.ip, label: "Laptop" }),
      headers: FORM,
    });
    expect(added.status).toBe(302);
    const listed = await client.get("/admin/ip-allowlist");
    expect(listed.text).toContain(`${client.ip}/32`);
    expect(listed.text).toContain("Laptop");

    const entry = await db.selectFrom("ipAllowlistEntries").select("id").where("orgId", "=", organization.id).executeTakeFirstOrThrow();
    // From another address every page answers 403.
    expect((await client.get("/admin/ip-allowlist", { ip: "203.0.113.50" })).status).toBe(403);
    const removed = await client.call("POST", "/admin/ip-allowlist", { body: new URLSearchParams({ intent: "delete", id: entry.id }), headers: FORM });
    expect(removed.status).toBe(302);
    expect((await client.get("/admin/ip-allowlist", { ip: "203.0.113.50" })).status).toBe(200);
  });
});
