import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";

/** Using the web UI counts as activity (the admin dashboard's "active" members), at most once per 5 minutes, as the API's ping does. */

const lastActive = async (userId: string) =>
  (await db.selectFrom("userProfiles").select("lastActiveAt").where("userId", "=", userId).executeTakeFirst())?.lastActiveAt ?? null;

afterEach(() => {
  vi.useRealTimers();
});

describe("activity from page use", () => {
  it("a page view records activity; views inside 5 minutes write nothing; the next one after does", async () => {
    const start = new Date("2026-11-20T10:00:00.000Z");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const { client, user } = await signedUpClient();
    expect(await lastActive(user.id)).toBeNull();

    expect((await client.get("/projects")).status).toBe(200);
    expect(await lastActive(user.id)).toBe(start.toISOString());

    // Four minutes later: still inside the window, so the stored time does not move.
    vi.setSystemTime(new Date(start.getTime() + 4 * 60_000));
    expect((await client.get("/home")).status).toBe(200);
    expect(await lastActive(user.id)).toBe(start.toISOString());

    // Six minutes after the first view: recorded again.
    const later = new Date(start.getTime() + 6 * 60_000);
    vi.setSystemTime(later);
    expect((await client.get("/settings")).status).toBe(200);
    expect(await lastActive(user.id)).toBe(later.toISOString());
  });

  it("the admin dashboard counts a member who only used the web pages as active", async () => {
    const { client } = await signedUpClient();
    const before = await client.get("/api/admin/dashboard");
    expect(before.status).toBe(200);
    expect(before.body.users).toMatchObject({ total: 1, activeLast7Days: 0, activeLast30Days: 0 });
    expect((await client.get("/home")).status).toBe(200);
    const after = await client.get("/api/admin/dashboard");
    expect(after.body.users).toMatchObject({ total: 1, activeLast7Days: 1, activeLast30Days: 1 });
  });

  it("a visitor who is not signed in records nothing", async () => {
    const { client, user } = await signedUpClient();
    await client.post("/api/auth/sign-out", {});
    const res = await client.get("/projects");
    expect(res.status).toBe(302);
    expect(await lastActive(user.id)).toBeNull();
  });
});
