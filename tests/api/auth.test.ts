import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createInvitationRecord } from "~/domain/orgs/invitations.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { GOOD_PASSWORD, TestClient, signedUpClient, uniqueEmail, type ApiResult } from "../support/client";

registerBackgroundWork();

/** Every test gets its own client IP so the per-IP auth rate limit never spills over. */
let ipCounter = 0;
const freshIp = () => {
  ipCounter++;
  return `10.20.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};
const client = () => new TestClient(freshIp());

const NEW_PASSWORD = "Brand-New-Pass-7";

function expectError(res: ApiResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ code });
  expect(typeof res.body.error).toBe("string");
  expect(res.body.error.length).toBeGreaterThan(0);
}

function detailPaths(res: ApiResult): string[] {
  expect(Array.isArray(res.body.details), `details missing in ${res.text}`).toBe(true);
  for (const d of res.body.details) {
    expect(typeof d.path).toBe("string");
    expect(typeof d.message).toBe("string");
  }
  return res.body.details.map((d: { path: string }) => d.path);
}

async function userByEmail(email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
}

async function emailsTo(address: string, kind: string) {
  return db.selectFrom("emails").selectAll().where("toAddress", "=", address.toLowerCase()).where("kind", "=", kind).orderBy("createdAt", "asc").execute();
}

/** The raw token of the link in the newest e-mail of `kind` sent to `address`. */
async function tokenFromLatestEmail(address: string, kind: string, path: string) {
  const mails = await emailsTo(address, kind);
  const last = mails.at(-1);
  expect(last, `no ${kind} e-mail to ${address}`).toBeDefined();
  const match = new RegExp(`/${path}\\?token=([^\\s&"<]+)`).exec(last!.text);
  expect(match, `no ${path} link in: ${last!.text}`).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

async function auditActions(userId: string) {
  const rows = await db.selectFrom("auditLogs").select("action").where("actorId", "=", userId).execute();
  return rows.map((r) => r.action);
}

const sessionCookieOf = (res: ApiResult) => res.headers.getSetCookie().find((c) => c.startsWith("__session="));

describe("POST /api/auth/register", () => {
  it("creates the user with a personal organization (owner, free plan) and signs them in", async () => {
    const c = client();
    const email = uniqueEmail("reg");
    const res = await c.post("/api/auth/register", { name: "Ada Lovelace", email, password: GOOD_PASSWORD });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("API-Version")).toBe("1");
    expect(res.body.user).toMatchObject({ name: "Ada Lovelace", email, emailVerified: false, timezone: "UTC" });
    expect(typeof res.body.user.id).toBe("string");
    expect(Number.isNaN(Date.parse(res.body.user.createdAt))).toBe(false);
    expect(res.body.organization).toMatchObject({ role: "owner", plan: "free" });
    expect(typeof res.body.organization.id).toBe("string");
    expect(typeof res.body.organization.name).toBe("string");
    // Never leaks the hash.
    expect(res.text).not.toMatch(/passwordHash|\$argon2/);

    const cookie = sessionCookieOf(res);
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(c.jar.has("__session")).toBe(true);

    const me = await c.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(res.body.user.id);
    expect(me.body.organization).toMatchObject({ id: res.body.organization.id, role: "owner", plan: "free" });

    const memberships = await db.selectFrom("memberships").selectAll().where("userId", "=", res.body.user.id).execute();
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatchObject({ orgId: res.body.organization.id, role: "owner" });
    const stored = await userByEmail(email);
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$|^\$scrypt/);
    expect(stored!.passwordHash).not.toContain(GOOD_PASSWORD);
  });

  it("stores a valid IANA timezone", async () => {
    const res = await client().post("/api/auth/register", {
      name: "Tz",
      email: uniqueEmail("tz"),
      password: GOOD_PASSWORD,
      timezone: "Europe/Paris",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.user.timezone).toBe("Europe/Paris");
  });

  it("refuses an invalid timezone with 400 VALIDATION_ERROR on timezone", async () => {
    const email = uniqueEmail("badtz");
    const res = await client().post("/api/auth/register", {
      name: "Tz",
      email,
      password: GOOD_PASSWORD,
      timezone: "Mars/Olympus_Mons",
    });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(detailPaths(res)).toContain("timezone");
    expect(await userByEmail(email)).toBeUndefined();
  });

  it.each([
    ["too short", "Ab1"],
    ["no uppercase", "lowercase-only-1"],
    ["no lowercase", "UPPERCASE-ONLY-1"],
    ["no digit", "No-Digits-Here"],
  ])("refuses a weak password (%s) with 400 WEAK_PASSWORD and details", async (_label, password) => {
    const email = uniqueEmail("weak");
    const c = client();
    const res = await c.post("/api/auth/register", { name: "Weak", email, password });
    expectError(res, 400, "WEAK_PASSWORD");
    expect(detailPaths(res)).toContain("password");
    expect(c.jar.has("__session")).toBe(false);
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("refuses missing fields with 400 VALIDATION_ERROR naming each path", async () => {
    const res = await client().post("/api/auth/register", {});
    expectError(res, 400, "VALIDATION_ERROR");
    const paths = detailPaths(res);
    expect(paths).toEqual(expect.arrayContaining(["name", "email", "password"]));

    const partial = await client().post("/api/auth/register", { email: uniqueEmail("partial"), password: GOOD_PASSWORD });
    expectError(partial, 400, "VALIDATION_ERROR");
    expect(detailPaths(partial)).toEqual(["name"]);
  });

  it("refuses a malformed e-mail with 400 VALIDATION_ERROR on email", async () => {
    for (const email of ["not-an-email", "a@", "@example.com", "two@@example.com"]) {
      const res = await client().post("/api/auth/register", { name: "Bad", email, password: GOOD_PASSWORD });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(detailPaths(res)).toContain("email");
    }
  });

  it("refuses a duplicate e-mail, case-insensitively, with 409 EMAIL_TAKEN", async () => {
    const c = client();
    const base = uniqueEmail("dup");
    const first = await c.post("/api/auth/register", { name: "One", email: base, password: GOOD_PASSWORD });
    expect(first.status).toBe(201);

    const c2 = client();
    const again = await c2.post("/api/auth/register", { name: "Two", email: base, password: GOOD_PASSWORD });
    expectError(again, 409, "EMAIL_TAKEN");
    const upper = await c2.post("/api/auth/register", { name: "Two", email: base.toUpperCase(), password: GOOD_PASSWORD });
    expectError(upper, 409, "EMAIL_TAKEN");
    const padded = await c2.post("/api/auth/register", { name: "Two", email: `  ${base}  `, password: GOOD_PASSWORD });
    expectError(padded, 409, "EMAIL_TAKEN");
    expect(c2.jar.has("__session")).toBe(false);

    const count = await db.selectFrom("users").select("id").where("email", "=", base.toLowerCase()).execute();
    expect(count).toHaveLength(1);
  });

  describe("with inviteToken", () => {
    async function invite(role: "admin" | "member" | "viewer", email = uniqueEmail("invitee")) {
      const owner = await signedUpClient();
      const { invitation, token } = await db
        .transaction()
        .execute((trx) => createInvitationRecord(trx, { orgId: owner.organization.id, email, role, invitedById: owner.user.id }));
      return { owner, invitation, token, email };
    }

    it("joins the inviting organization with the invited role instead of creating one", async () => {
      const { owner, invitation, token, email } = await invite("admin");
      const c = client();
      const res = await c.post("/api/auth/register", { name: "Invited", email, password: GOOD_PASSWORD, inviteToken: token });
      expect(res.status, res.text).toBe(201);
      expect(res.body.user.email).toBe(email);
      expect(res.body.organization).toMatchObject({ id: owner.organization.id, role: "admin" });

      const memberships = await db.selectFrom("memberships").selectAll().where("userId", "=", res.body.user.id).execute();
      expect(memberships).toHaveLength(1);
      expect(memberships[0]).toMatchObject({ orgId: owner.organization.id, role: "admin" });

      const inv = await db.selectFrom("invitations").selectAll().where("id", "=", invitation.id).executeTakeFirstOrThrow();
      expect(inv.status).toBe("accepted");

      const me = await c.get("/api/auth/me");
      expect(me.status).toBe(200);
      expect(me.body.organization).toMatchObject({ id: owner.organization.id, role: "admin" });
    });

    it("gives a viewer invitation the viewer role", async () => {
      const { owner, token, email } = await invite("viewer");
      const res = await client().post("/api/auth/register", { name: "V", email, password: GOOD_PASSWORD, inviteToken: token });
      expect(res.status, res.text).toBe(201);
      expect(res.body.organization).toMatchObject({ id: owner.organization.id, role: "viewer" });
    });

    it("refuses an already used invitation with 401 INVALID_TOKEN and creates no user", async () => {
      const { token, email } = await invite("member");
      const ok = await client().post("/api/auth/register", { name: "A", email, password: GOOD_PASSWORD, inviteToken: token });
      expect(ok.status, ok.text).toBe(201);

      const otherEmail = uniqueEmail("reuse");
      const c = client();
      const res = await c.post("/api/auth/register", { name: "B", email: otherEmail, password: GOOD_PASSWORD, inviteToken: token });
      expectError(res, 401, "INVALID_TOKEN");
      expect(c.jar.has("__session")).toBe(false);
      expect(await userByEmail(otherEmail)).toBeUndefined();
    });

    it("refuses an unknown invitation token with 401 INVALID_TOKEN", async () => {
      const email = uniqueEmail("garbage");
      const res = await client().post("/api/auth/register", {
        name: "G",
        email,
        password: GOOD_PASSWORD,
        inviteToken: "definitely-not-a-real-token",
      });
      expectError(res, 401, "INVALID_TOKEN");
      expect(await userByEmail(email)).toBeUndefined();
    });

    it("refuses an expired invitation with 410 TOKEN_EXPIRED and rolls back the user", async () => {
      const { invitation, token, email } = await invite("member");
      await db
        .updateTable("invitations")
        .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
        .where("id", "=", invitation.id)
        .execute();
      const c = client();
      const res = await c.post("/api/auth/register", { name: "Late", email, password: GOOD_PASSWORD, inviteToken: token });
      expectError(res, 410, "TOKEN_EXPIRED");
      expect(c.jar.has("__session")).toBe(false);
      expect(await userByEmail(email)).toBeUndefined();
      // The address is still free to register normally.
      const plain = await client().post("/api/auth/register", { name: "Late", email, password: GOOD_PASSWORD });
      expect(plain.status, plain.text).toBe(201);
      expect(plain.body.organization.role).toBe("owner");
    });
  });
});

describe("POST /api/auth/sign-in", () => {
  it("signs in with the right password (e-mail case-insensitive) and sets a session cookie", async () => {
    const { email, user, organization } = await signedUpClient();
    const c = client();
    const res = await c.post("/api/auth/sign-in", { email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, email });
    expect(res.body.organization).toMatchObject({ id: organization.id, role: "owner" });
    expect(sessionCookieOf(res)).toMatch(/HttpOnly/i);
    const me = await c.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.id);
    expect(await auditActions(user.id)).toContain("auth.sign_in");
  });

  it("answers a wrong password and an unknown e-mail identically: 401 INVALID_CREDENTIALS", async () => {
    const { email, user } = await signedUpClient();
    const c = client();
    const wrong = await c.post("/api/auth/sign-in", { email, password: "Wrong-Password-1" });
    expectError(wrong, 401, "INVALID_CREDENTIALS");
    const unknown = await c.post("/api/auth/sign-in", { email: uniqueEmail("nobody"), password: GOOD_PASSWORD });
    expectError(unknown, 401, "INVALID_CREDENTIALS");
    expect(unknown.body.error).toBe(wrong.body.error);
    expect(c.jar.has("__session")).toBe(false);
    expect(sessionCookieOf(wrong)).toBeUndefined();
    expect(await auditActions(user.id)).toContain("auth.sign_in_failed");
  });

  it("refuses missing fields with 400 VALIDATION_ERROR", async () => {
    const res = await client().post("/api/auth/sign-in", {});
    expectError(res, 400, "VALIDATION_ERROR");
    expect(detailPaths(res)).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("locks the account from that source on the 5th failure: 423 ACCOUNT_LOCKED with Retry-After, even with the right password", async () => {
    const { email, user } = await signedUpClient();
    const c = client();
    for (let i = 1; i <= 4; i++) {
      const res = await c.post("/api/auth/sign-in", { email, password: `Wrong-Password-${i}` });
      expectError(res, 401, "INVALID_CREDENTIALS");
    }
    const fifth = await c.post("/api/auth/sign-in", { email, password: "Wrong-Password-5" });
    expectError(fifth, 423, "ACCOUNT_LOCKED");
    const retry = Number(fifth.headers.get("Retry-After"));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(14 * 60);
    expect(retry).toBeLessThanOrEqual(15 * 60);

    const right = await c.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD });
    expectError(right, 423, "ACCOUNT_LOCKED");
    expect(Number(right.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(c.jar.has("__session")).toBe(false);

    const stored = await throttle(email, c.ip);
    expect(Date.parse(stored!.lockedUntil!)).toBeGreaterThan(Date.now() + 14 * 60_000);

    const actions = await auditActions(user.id);
    expect(actions.filter((a) => a === "auth.sign_in_failed")).toHaveLength(5);
    expect(actions.filter((a) => a === "auth.account_locked")).toHaveLength(1);
    expect(actions).not.toContain("auth.sign_in");

    // The lock ends: move it into the past.
    await db
      .updateTable("signInThrottles")
      .set({ lockedUntil: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", email)
      .execute();
    const after = await c.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD });
    expect(after.status, after.text).toBe(200);
    expect(c.jar.has("__session")).toBe(true);
    expect(await auditActions(user.id)).toContain("auth.sign_in");

    // A success clears the failure count: a new wrong password is a plain 401 again.
    const again = await c.post("/api/auth/sign-in", { email, password: "Wrong-Password-6" });
    expectError(again, 401, "INVALID_CREDENTIALS");
  });

  it("does not count failures older than 30 minutes", async () => {
    const { email, user } = await signedUpClient();
    const c = client();
    for (let i = 1; i <= 4; i++) {
      expectError(await c.post("/api/auth/sign-in", { email, password: `Wrong-Password-${i}` }), 401, "INVALID_CREDENTIALS");
    }
    // Those four happened 31 minutes ago.
    await db
      .updateTable("signInThrottles")
      .set({ firstFailureAt: new Date(Date.now() - 31 * 60_000).toISOString() })
      .where("email", "=", email)
      .execute();
    // A new window starts: four more failures stay below the threshold.
    for (let i = 5; i <= 8; i++) {
      expectError(await c.post("/api/auth/sign-in", { email, password: `Wrong-Password-${i}` }), 401, "INVALID_CREDENTIALS");
    }
    expect((await throttle(email, c.ip))!.lockedUntil).toBeNull();
    expect(user.id).toBeTruthy();
    // ...and the fifth in the new window locks.
    expectError(await c.post("/api/auth/sign-in", { email, password: "Wrong-Password-9" }), 423, "ACCOUNT_LOCKED");
  });
});

/** The sign-in counter of an address from one source. */
function throttle(email: string, source: string) {
  return db.selectFrom("signInThrottles").selectAll().where("email", "=", email).where("source", "=", source).executeTakeFirst();
}

describe("POST /api/auth/sign-out", () => {
  it("ends the session and clears the cookie; /api/auth/me then answers 401", async () => {
    const { client: c } = await signedUpClient();
    const stolen = c.jar.get("__session")!;
    expect((await c.get("/api/auth/me")).status).toBe(200);

    const res = await c.post("/api/auth/sign-out");
    expect(res.status, res.text).toBe(200);
    const cleared = sessionCookieOf(res);
    expect(cleared).toBeDefined();
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect(c.jar.has("__session")).toBe(false);

    expectError(await c.get("/api/auth/me"), 401, "UNAUTHORIZED");

    // The old cookie value no longer works either: the session is gone server-side.
    const replay = new TestClient(freshIp());
    replay.jar.set("__session", stolen);
    expectError(await replay.get("/api/auth/me"), 401, "UNAUTHORIZED");
  });

  it("answers 200 without a session", async () => {
    const res = await client().post("/api/auth/sign-out");
    expect(res.status).toBe(200);
  });
});

describe("GET /api/auth/me", () => {
  it("answers 401 UNAUTHORIZED without credentials", async () => {
    expectError(await client().get("/api/auth/me"), 401, "UNAUTHORIZED");
  });
});

describe("POST /api/auth/forgot-password", () => {
  it("answers 200 for an unknown e-mail and queues nothing", async () => {
    const email = uniqueEmail("ghost");
    const res = await client().post("/api/auth/forgot-password", { email });
    expect(res.status, res.text).toBe(200);
    expect(await emailsTo(email, "reset_password")).toHaveLength(0);
  });

  it("answers the same for a known e-mail and queues a reset e-mail that lands in the outbox", async () => {
    const { email } = await signedUpClient();
    const c = client();
    const unknown = await c.post("/api/auth/forgot-password", { email: uniqueEmail("ghost") });
    const known = await c.post("/api/auth/forgot-password", { email: email.toUpperCase() });
    expect(known.status, known.text).toBe(200);
    expect(known.body).toEqual(unknown.body);

    const mails = await emailsTo(email, "reset_password");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.status).toBe("queued");
    expect(mails[0]!.text).toMatch(/\/reset-password\?token=/);

    await runDueJobs();
    const after = await db.selectFrom("emails").selectAll().where("id", "=", mails[0]!.id).executeTakeFirstOrThrow();
    expect(after.status).toBe("outbox");
  });
});

describe("POST /api/auth/reset-password", () => {
  async function resetToken(email: string) {
    const res = await client().post("/api/auth/forgot-password", { email });
    expect(res.status).toBe(200);
    return tokenFromLatestEmail(email, "reset_password", "reset-password");
  }

  it("sets the new password, signs out every session, and the token is single-use", async () => {
    const { client: a, email, user } = await signedUpClient();
    const b = client();
    expect((await b.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD })).status).toBe(200);
    expect((await a.get("/api/auth/me")).status).toBe(200);
    expect((await b.get("/api/auth/me")).status).toBe(200);

    const token = await resetToken(email);
    const c = client();
    const res = await c.post("/api/auth/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.status, res.text).toBe(200);

    expectError(await a.get("/api/auth/me"), 401, "UNAUTHORIZED");
    expectError(await b.get("/api/auth/me"), 401, "UNAUTHORIZED");
    const sessions = await db.selectFrom("sessions").select("id").where("userId", "=", user.id).execute();
    expect(sessions).toHaveLength(0);

    const d = client();
    expectError(await d.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD }), 401, "INVALID_CREDENTIALS");
    expect((await d.post("/api/auth/sign-in", { email, password: NEW_PASSWORD })).status).toBe(200);

    const reuse = await c.post("/api/auth/reset-password", {
      token,
      password: "Another-Pass-8",
      confirmPassword: "Another-Pass-8",
    });
    expectError(reuse, 401, "INVALID_TOKEN");
    // The second attempt changed nothing.
    expect((await client().post("/api/auth/sign-in", { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("refuses an unknown token with 401 INVALID_TOKEN", async () => {
    const res = await client().post("/api/auth/reset-password", {
      token: "no-such-token-anywhere",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expectError(res, 401, "INVALID_TOKEN");
  });

  it("refuses an expired token with 410 TOKEN_EXPIRED", async () => {
    const { email, user } = await signedUpClient();
    const token = await resetToken(email);
    await db
      .updateTable("oneTimeTokens")
      .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
      .where("userId", "=", user.id)
      .where("purpose", "=", "password_reset")
      .execute();
    const res = await client().post("/api/auth/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expectError(res, 410, "TOKEN_EXPIRED");
    // Password unchanged.
    expect((await client().post("/api/auth/sign-in", { email, password: GOOD_PASSWORD })).status).toBe(200);
  });

  it("refuses a confirmPassword mismatch with 400 VALIDATION_ERROR on confirmPassword", async () => {
    const { email } = await signedUpClient();
    const token = await resetToken(email);
    const res = await client().post("/api/auth/reset-password", {
      token,
      password: NEW_PASSWORD,
      confirmPassword: "Something-Else-9",
    });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(detailPaths(res)).toContain("confirmPassword");
  });

  it("refuses missing fields with 400 VALIDATION_ERROR", async () => {
    const res = await client().post("/api/auth/reset-password", {});
    expectError(res, 400, "VALIDATION_ERROR");
    expect(detailPaths(res)).toEqual(expect.arrayContaining(["token", "password", "confirmPassword"]));
  });

  it("refuses a weak password with 400 WEAK_PASSWORD without burning the token", async () => {
    const { email } = await signedUpClient();
    const token = await resetToken(email);
    const c = client();
    const weak = await c.post("/api/auth/reset-password", { token, password: "weakpass", confirmPassword: "weakpass" });
    expectError(weak, 400, "WEAK_PASSWORD");
    expect(detailPaths(weak)).toContain("password");
    const ok = await c.post("/api/auth/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("POST /api/auth/change-password", () => {
  it("needs a session: 401 UNAUTHORIZED without one", async () => {
    const res = await client().post("/api/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("refuses a wrong current password with 400 VALIDATION_ERROR", async () => {
    const { client: c, email } = await signedUpClient();
    const res = await c.post("/api/auth/change-password", { currentPassword: "Not-The-One-1", newPassword: NEW_PASSWORD });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(detailPaths(res)).toContain("currentPassword");
    expect((await client().post("/api/auth/sign-in", { email, password: GOOD_PASSWORD })).status).toBe(200);
  });

  it("refuses a weak new password with 400 WEAK_PASSWORD", async () => {
    const { client: c } = await signedUpClient();
    const res = await c.post("/api/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: "short1A" });
    expectError(res, 400, "WEAK_PASSWORD");
    expect(detailPaths(res)).toContain("newPassword");
  });

  it("changes the password, keeps the current session and signs out the others", async () => {
    const { client: a, email } = await signedUpClient();
    const b = client();
    expect((await b.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD })).status).toBe(200);

    const res = await a.post("/api/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status, res.text).toBe(200);

    expect((await a.get("/api/auth/me")).status).toBe(200);
    expectError(await b.get("/api/auth/me"), 401, "UNAUTHORIZED");

    const c = client();
    expectError(await c.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD }), 401, "INVALID_CREDENTIALS");
    expect((await c.post("/api/auth/sign-in", { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("refuses an API-key caller with 403 FORBIDDEN", async () => {
    const { client: a, email, organization } = await signedUpClient();
    await db.updateTable("organizations").set({ plan: "starter" }).where("id", "=", organization.id).execute();
    const created = await a.post("/api/admin/rest-api-keys", { name: "ci" });
    expect(created.status, created.text).toBe(201);
    const key = created.body.apiKey.key as string;

    const res = await new TestClient(freshIp()).post("/api/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD }, { key });
    expectError(res, 403, "FORBIDDEN");
    expect((await client().post("/api/auth/sign-in", { email, password: GOOD_PASSWORD })).status).toBe(200);
  });
});

describe("GET /api/auth/verify-email", () => {
  it("verifies with the token from the verification e-mail; the token is single-use", async () => {
    const { client: a, email } = await signedUpClient();
    expect((await a.get("/api/auth/me")).body.user.emailVerified).toBe(false);
    const token = await tokenFromLatestEmail(email, "verify_email", "verify-email");

    // Public: works from a browser that is not signed in.
    const anon = client();
    const res = await anon.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ verified: true });

    const me = await a.get("/api/auth/me");
    expect(me.body.user.emailVerified).toBe(true);

    expectError(await anon.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`), 401, "INVALID_TOKEN");
  });

  it("refuses a missing or empty token with 400", async () => {
    const c = client();
    const missing = await c.get("/api/auth/verify-email");
    expectError(missing, 400, "VALIDATION_ERROR");
    expect(detailPaths(missing)).toContain("token");
    expectError(await c.get("/api/auth/verify-email?token="), 400, "VALIDATION_ERROR");
  });

  it("refuses an unknown token with 401 INVALID_TOKEN and an expired one with 410 TOKEN_EXPIRED", async () => {
    const c = client();
    expectError(await c.get("/api/auth/verify-email?token=made-up-token"), 401, "INVALID_TOKEN");

    const { client: a, email, user } = await signedUpClient();
    const token = await tokenFromLatestEmail(email, "verify_email", "verify-email");
    await db
      .updateTable("oneTimeTokens")
      .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
      .where("userId", "=", user.id)
      .where("purpose", "=", "email_verification")
      .execute();
    expectError(await c.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`), 410, "TOKEN_EXPIRED");
    expect((await a.get("/api/auth/me")).body.user.emailVerified).toBe(false);
  });
});

describe("POST /api/auth/resend-verification", () => {
  it("always answers 200; queues a new link only for an existing unverified account", async () => {
    const { client: a, email } = await signedUpClient();
    const c = client();
    expect(await emailsTo(email, "verify_email")).toHaveLength(1);

    const ghostEmail = uniqueEmail("ghost");
    const ghost = await c.post("/api/auth/resend-verification", { email: ghostEmail });
    expect(ghost.status, ghost.text).toBe(200);
    expect(await emailsTo(ghostEmail, "verify_email")).toHaveLength(0);

    const unverified = await c.post("/api/auth/resend-verification", { email });
    expect(unverified.status).toBe(200);
    expect(unverified.body).toEqual(ghost.body);
    expect(await emailsTo(email, "verify_email")).toHaveLength(2);

    // The new link verifies the account.
    const token = await tokenFromLatestEmail(email, "verify_email", "verify-email");
    expect((await c.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)).body).toEqual({ verified: true });
    expect((await a.get("/api/auth/me")).body.user.emailVerified).toBe(true);

    const verified = await c.post("/api/auth/resend-verification", { email });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual(ghost.body);
    expect(await emailsTo(email, "verify_email")).toHaveLength(2);
  });
});

describe("auth rate limit", () => {
  function expectRateLimited(res: ApiResult, limit: number) {
    expectError(res, 429, "RATE_LIMITED");
    const retry = Number(res.headers.get("Retry-After"));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(0);
    // A 60 s window, rounded up to whole seconds.
    expect(retry).toBeLessThanOrEqual(61);
    expect(res.headers.get("X-RateLimit-Limit")).toBe(String(limit));
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("0");
    const reset = Number(res.headers.get("X-RateLimit-Reset"));
    const nowSec = Date.now() / 1000;
    expect(reset).toBeGreaterThan(nowSec - 1);
    expect(reset).toBeLessThanOrEqual(nowSec + 61);
  }

  it("answers the 11th request within a minute from one IP with 429 RATE_LIMITED and rate headers", async () => {
    const c = client();
    for (let i = 0; i < 10; i++) {
      const res = await c.post("/api/auth/forgot-password", { email: uniqueEmail("flood") });
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
    }
    const eleventh = await c.post("/api/auth/forgot-password", { email: uniqueEmail("flood") });
    expectRateLimited(eleventh, 10);

    // Sign-in from the same IP is refused too, before any password check.
    const { email } = await signedUpClient();
    expectRateLimited(await c.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD }), 10);

    // Another IP is unaffected.
    expect((await client().post("/api/auth/forgot-password", { email: uniqueEmail("other") })).status).toBe(200);
  });

  it("limits sign-in attempts from one IP across different e-mails", async () => {
    const c = client();
    for (let i = 0; i < 10; i++) {
      expectError(await c.post("/api/auth/sign-in", { email: uniqueEmail("spray"), password: GOOD_PASSWORD }), 401, "INVALID_CREDENTIALS");
    }
    expectRateLimited(await c.post("/api/auth/sign-in", { email: uniqueEmail("spray"), password: GOOD_PASSWORD }), 10);
  });

  it("limits requests for one e-mail across different IPs", async () => {
    const email = uniqueEmail("target");
    for (let i = 0; i < 10; i++) {
      expect((await client().post("/api/auth/forgot-password", { email })).status).toBe(200);
    }
    expectRateLimited(await client().post("/api/auth/forgot-password", { email }), 10);
  });
});
