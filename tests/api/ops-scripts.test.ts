import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { config } from "~/config.server";
import { db } from "~/db.server";
import { runDueJobs } from "~/jobs/worker.server";
import { createSuperadmin } from "~/ops/superadmin.server";
import { ENCRYPTED_COLUMNS, RotationRefused, rotateEncryptionKey } from "~/ops/rotate-key.server";
import { decrypt, encryptWithKey } from "~/utils/crypto.server";
import { setEnv } from "../support/ai";
import { GOOD_PASSWORD, signedUpClient, TestClient, uniqueEmail } from "../support/client";
import { type Account, setPlan } from "../support/org";
import { type Receiver, startReceiver, verifySignature } from "./webhooks-support";

registerBackgroundWork();

/** Operator scripts: key rotation (one transaction, refuses unreadable values) and the first superadmin. */

const AI_KEY = "sk-rotate-abcdefghijklmnopqrstuvwxyz012345";
const HOOK_SECRET = "a-shared-secret-for-rotation";
let owner: Account;
let receiver: Receiver;
let hookId: string;

const snapshot = async () => ({
  keys: await db.selectFrom("aiProviderKeys").select(["id", "keyEncrypted"]).orderBy("id").execute(),
  hooks: await db.selectFrom("webhooks").select(["id", "secretEncrypted"]).orderBy("id").execute(),
});

beforeAll(async () => {
  receiver = await startReceiver();
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" });
  owner = await signedUpClient({ name: "Rita Rotator" });
  await setPlan(owner.organization.id, "pro");
  expect((await owner.client.post("/api/user/api-keys", { provider: "provider_a", key: AI_KEY })).status).toBe(201);
  const hook = await owner.client.post("/api/admin/webhooks", { name: "R", url: receiver.url, events: ["*"], secret: HOOK_SECRET });
  expect(hook.status, hook.text).toBe(201);
  hookId = hook.body.webhook.id;
});
afterAll(async () => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined, ENCRYPTION_KEY: undefined });
  await receiver.close();
});

describe("encryption key rotation", () => {
  it("lists every table written with encrypt()", () => {
    expect(ENCRYPTED_COLUMNS.map((c) => c.table).sort()).toEqual(
      [
        "aiProviderKeys",
        "integrationConnections",
        "invitations",
        "oauthStates",
        "projectShares",
        "scheduledExports",
        "slackConnections",
        "stakeholderViews",
        "trackerConnections",
        "webhooks",
      ].sort(),
    );
  });

  it("a failure part-way leaves every value as it was (one transaction)", async () => {
    const before = await snapshot();
    await expect(
      rotateEncryptionKey(db, {
        currentKey: config().ENCRYPTION_KEY,
        onTable: (table) => {
          if (table === "webhooks") throw new Error("disk went away");
        },
      }),
    ).rejects.toThrow("disk went away");
    expect(await snapshot()).toEqual(before);
  });

  it("refuses, changing nothing, when a value does not decrypt with the current key", async () => {
    const foreign = encryptWithKey("other", crypto.randomBytes(32).toString("hex"));
    const [row] = (await snapshot()).keys;
    await db.updateTable("aiProviderKeys").set({ keyEncrypted: foreign }).where("id", "=", row!.id).execute();
    const before = await snapshot();
    const error = await rotateEncryptionKey(db, { currentKey: config().ENCRYPTION_KEY }).catch((e) => e);
    expect(error).toBeInstanceOf(RotationRefused);
    expect(error.message).toContain(`aiProviderKeys.keyEncrypted (${row!.id})`);
    expect(await snapshot()).toEqual(before);

    // --force rotates the rest and reports what it left.
    const forced = await rotateEncryptionKey(db, { currentKey: config().ENCRYPTION_KEY, force: true });
    expect(forced.skipped).toEqual([{ table: "aiProviderKeys", column: "keyEncrypted", key: row!.id }]);
    expect(forced.rotated.webhooks).toBe(1);
    setEnv({ ENCRYPTION_KEY: forced.newKey });
    // Put the real key back under the new key for the next test.
    await db
      .updateTable("aiProviderKeys")
      .set({ keyEncrypted: encryptWithKey(AI_KEY, forced.newKey) })
      .where("id", "=", row!.id)
      .execute();
  });

  it("re-encrypts every secret with a new key; the app works with it", async () => {
    const oldKey = config().ENCRYPTION_KEY;
    const before = await snapshot();
    const result = await rotateEncryptionKey(db, { currentKey: oldKey });
    expect(result.newKey).toMatch(/^[0-9a-f]{64}$/);
    expect(result.rotated).toMatchObject({ aiProviderKeys: 1, webhooks: 1 });
    expect(result.skipped).toEqual([]);

    const after = await snapshot();
    expect(after.keys[0]!.keyEncrypted).not.toBe(before.keys[0]!.keyEncrypted);
    expect(after.hooks[0]!.secretEncrypted).not.toBe(before.hooks[0]!.secretEncrypted);
    expect(decrypt(after.keys[0]!.keyEncrypted)).toBeNull(); // still on the old key

    setEnv({ ENCRYPTION_KEY: result.newKey });
    expect(decrypt(after.keys[0]!.keyEncrypted)).toBe(AI_KEY);
    // The webhook signs with its secret, read through the new key.
    expect((await owner.client.post(`/api/admin/webhooks/${hookId}/test`)).status).toBe(202);
    await runDueJobs({ now: new Date(Date.now() + 60_000) });
    const got = receiver.received.at(-1)!;
    expect(verifySignature(HOOK_SECRET, got.raw, got.headers["x-webhook-signature"] as string)).toBe(true);
  });

  it("refuses a new key equal to the current one or malformed", async () => {
    const key = config().ENCRYPTION_KEY;
    await expect(rotateEncryptionKey(db, { currentKey: key, newKey: key })).rejects.toThrow("is the current key");
    await expect(rotateEncryptionKey(db, { currentKey: key, newKey: "short" })).rejects.toThrow("64 hexadecimal");
  });
});

describe("first superadmin", () => {
  it("creates a verified account with a generated password that signs in", async () => {
    const email = uniqueEmail("root");
    setEnv({ SUPERADMIN_EMAILS: email });
    const result = await createSuperadmin({ email: email.toUpperCase(), name: "Root Admin" });
    expect(result).toMatchObject({ created: true, email, listed: true, password: expect.any(String) });
    const client = new TestClient("10.9.9.9");
    const res = await client.post("/api/auth/sign-in", { email, password: result.password });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ email, isSuperadmin: true, emailVerified: true });
    setEnv({ SUPERADMIN_EMAILS: undefined });
  });

  it("finds an existing account without touching its password, and says when SUPERADMIN_EMAILS lacks it", async () => {
    const email = uniqueEmail("existing");
    await signedUpClient({ email });
    const result = await createSuperadmin({ email });
    expect(result).toMatchObject({ created: false, password: null, listed: false });
    const res = await new TestClient("10.9.9.8").post("/api/auth/sign-in", { email, password: GOOD_PASSWORD });
    expect(res.status).toBe(200);
  });

  it("does not promote an existing account that never confirmed the listed address, unless the operator confirms it", async () => {
    const email = uniqueEmail("squat");
    setEnv({ SUPERADMIN_EMAILS: email });
    try {
      const squatter = await signedUpClient({ email });
      const found = await createSuperadmin({ email });
      expect(found).toMatchObject({ created: false, listed: true, confirmed: false });
      expect((await squatter.client.get("/api/auth/me")).body.user.isSuperadmin).toBe(false);
      const vouched = await createSuperadmin({ email, confirm: true });
      expect(vouched).toMatchObject({ created: false, listed: true, confirmed: true });
      expect((await squatter.client.get("/api/auth/me")).body.user.isSuperadmin).toBe(true);
    } finally {
      setEnv({ SUPERADMIN_EMAILS: undefined });
    }
  });

  it("rejects something that is not an e-mail address", async () => {
    await expect(createSuperadmin({ email: "not-an-address" })).rejects.toThrow("Not an e-mail address");
  });
});
