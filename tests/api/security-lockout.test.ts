import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { throttlePolicy } from "~/domain/auth/lockout.server";
import { GOOD_PASSWORD, signedUpClient, TestClient, uniqueEmail } from "../support/client";

/**
 * Finding 10: after five wrong passwords an existing account answered 423
 * while an unknown one answered 401 (account enumeration), and anyone could
 * keep any account locked. Lockout is now per (address, source), the same
 * for unknown addresses, and guessing from many sources slows every attempt
 * instead of locking the owner out.
 */

const waits: number[] = [];
const sleep = throttlePolicy.sleep;
beforeEach(() => {
  waits.length = 0;
  throttlePolicy.sleep = async (ms) => {
    waits.push(ms);
  };
});
afterEach(() => {
  throttlePolicy.sleep = sleep;
});

let ipCounter = 0;
const fromNewSource = () => new TestClient(`203.0.113.${++ipCounter}`);

async function guess(client: TestClient, email: string, times: number) {
  const answers: { status: number; code: string; error: string; retryAfter: string | null }[] = [];
  for (let i = 0; i < times; i++) {
    const res = await client.post("/api/auth/sign-in", { email, password: `Wrong-Guess-${i}x` });
    answers.push({ status: res.status, code: res.body.code, error: res.body.error, retryAfter: res.headers.get("Retry-After") });
  }
  return answers;
}

describe("sign-in lockout", () => {
  it("answers a known and an unknown address the same way, guess after guess", async () => {
    const { email } = await signedUpClient();
    const known = await guess(fromNewSource(), email, 6);
    const unknown = await guess(fromNewSource(), uniqueEmail("nobody"), 6);
    expect(known.map((a) => [a.status, a.code, a.error])).toEqual(unknown.map((a) => [a.status, a.code, a.error]));
    expect(known.map((a) => a.status)).toEqual([401, 401, 401, 401, 423, 423]);
    expect(Number(unknown[5]!.retryAfter)).toBeGreaterThan(14 * 60);
  });

  it("an attacker elsewhere locks only their own source: the owner still signs in from theirs", async () => {
    const { email } = await signedUpClient();
    const attacker = fromNewSource();
    expect((await guess(attacker, email, 12)).slice(4).every((a) => a.status === 423 || a.status === 429)).toBe(true);
    // Even the right password is refused from the attacker's source...
    expect((await attacker.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD })).status).not.toBe(200);
    // ...but the owner, elsewhere, signs in.
    const owner = fromNewSource();
    const res = await owner.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD });
    expect(res.status, res.text).toBe(200);
  });

  it("guessing one address from many sources slows every attempt down, exponentially, without locking the owner out", async () => {
    const { email } = await signedUpClient();
    for (let i = 0; i < 14; i++) await guess(fromNewSource(), email, 1);
    expect(waits).toEqual([250, 500, 1000]);
    waits.length = 0;
    const res = await fromNewSource().post("/api/auth/sign-in", { email, password: GOOD_PASSWORD });
    expect(res.status, res.text).toBe(200);
    expect(waits).toEqual([2000]);
    // The same holds for an address without an account.
    const ghost = uniqueEmail("ghost");
    for (let i = 0; i < 12; i++) await guess(fromNewSource(), ghost, 1);
    expect(waits.slice(1)).toEqual([250]);
  });

  it("a password reset ends every lock of the address", async () => {
    const { email } = await signedUpClient();
    const source = fromNewSource();
    await guess(source, email, 5);
    expect((await source.post("/api/auth/sign-in", { email, password: GOOD_PASSWORD })).status).toBe(423);
    const { db } = await import("~/db.server");
    const { issueToken } = await import("~/domain/auth/tokens.server");
    const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const token = await db.transaction().execute((trx) => issueToken(trx, user.id, "password_reset"));
    expect((await source.post("/api/auth/reset-password", { token, password: "Brand-New-Pass-7", confirmPassword: "Brand-New-Pass-7" })).status).toBe(200);
    expect((await source.post("/api/auth/sign-in", { email, password: "Brand-New-Pass-7" })).status).toBe(200);
  });
});
