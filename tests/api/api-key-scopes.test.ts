import crypto from "node:crypto";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "#db/migrations/index";
import { db } from "~/db.server";
import { deleteAllProjects, deleteOrganization } from "~/domain/admin/danger.server";
import { createApiKeySchema } from "~/domain/api-keys/api-keys.schema";
import { actorFromApiKey, createApiKey, revokeApiKey } from "~/domain/api-keys/api-keys.server";
import { requiredScope } from "~/http/api/contract";
import { allContracts } from "~/http/api/contracts/index";
import * as administration from "~/http/api/contracts/administration";
import * as admin from "~/http/api/contracts/admin";
import * as apiKeys from "~/http/api/contracts/api-keys";
import * as billing from "~/http/api/contracts/billing";
import * as organization from "~/http/api/contracts/organization";
import * as projects from "~/http/api/contracts/projects";
import * as user from "~/http/api/contracts/user";
import * as webhooks from "~/http/api/contracts/webhooks";
import { newId, sha256 } from "~/utils/ids.server";
import { ORIGIN, TestClient, signedUpClient, type ApiResult } from "../support/client";
import { expectError, setPlan } from "../support/org";
import { pageText } from "../support/page";

/**
 * Security finding "API keys cannot be limited": keys carry scopes (read,
 * write, admin) that narrow, never widen, their creator's role; minting keys
 * and organization administration need `admin`. See docs/api.md, "API key scopes".
 */

const KEYS = "/api/admin/rest-api-keys";
const FULL = ["read", "write", "admin"];

let ipCounter = 0;
/** A client with no cookies, for Bearer calls (own IP). */
const bare = () => {
  ipCounter++;
  return new TestClient(`10.47.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`);
};

/** An owner on Enterprise (no key limit). */
async function owner() {
  const account = await signedUpClient({ name: "Scope Owner" });
  await setPlan(account.organization.id, "enterprise");
  return account;
}

async function mint(client: TestClient, body: Record<string, unknown>, key?: string) {
  const res = await client.post(KEYS, body, key ? { key } : undefined);
  expect(res.status, res.text).toBe(201);
  return res.body.apiKey as { id: string; key: string; prefix: string; scopes: string[] };
}

function expectScopeError(res: ApiResult, scope: string) {
  expectError(res, 403, "FORBIDDEN");
  expect(res.body.error).toBe(`This API key lacks the ${scope} scope`);
}

const projectCount = async (orgId: string) =>
  Number(
    (
      await db
        .selectFrom("projects")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("orgId", "=", orgId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("a read-only key", () => {
  it("can GET but gets 403 naming the write scope on POST /api/projects", async () => {
    const { client, organization } = await owner();
    const created = await mint(client, { name: "dashboard", scopes: ["read"] });
    expect(created.scopes).toEqual(["read"]);
    const caller = bare();
    const me = await caller.get("/api/auth/me", { key: created.key });
    expect(me.status, me.text).toBe(200);
    expect(me.body.organization.role).toBe("owner");
    expect((await caller.get("/api/projects", { key: created.key })).status).toBe(200);

    expectScopeError(await caller.post("/api/projects", { name: "Nope" }, { key: created.key }), "write");
    expect(await projectCount(organization.id)).toBe(0);
    // Nor can it mint itself a broader key.
    expectScopeError(await caller.post(KEYS, { name: "escalate" }, { key: created.key }), "admin");
  });

  it("is listed with its scopes", async () => {
    const { client } = await owner();
    const created = await mint(client, { name: "reader", scopes: ["read"] });
    const listed = (await client.get(KEYS)).body.apiKeys.find((k: { id: string }) => k.id === created.id);
    expect(listed.scopes).toEqual(["read"]);
  });
});

describe("a write key", () => {
  it("creates projects but cannot mint a key, invite members, delete all projects or delete the organization", async () => {
    const { client, organization } = await owner();
    const created = await mint(client, { name: "ci", scopes: ["write"] });
    expect(created.scopes).toEqual(["read", "write"]);
    const key = created.key;
    const caller = bare();

    const project = await caller.post("/api/projects", { name: "From CI" }, { key });
    expect(project.status, project.text).toBe(201);

    expectScopeError(await caller.post(KEYS, { name: "minted", scopes: ["read"] }, { key }), "admin");
    expectScopeError(await caller.delete(`${KEYS}/${created.id}`, { key }), "admin");
    expectScopeError(await caller.post("/api/invitations", { email: "mallory@example.com", role: "admin" }, { key }), "admin");
    expectScopeError(await caller.post("/api/admin/settings/delete-all-projects", { confirmName: organization.name }, { key }), "admin");
    expectScopeError(await caller.post("/api/admin/settings/delete-organization", { confirmName: organization.name }, { key }), "admin");

    const keys = await db.selectFrom("apiKeys").select("id").where("orgId", "=", organization.id).execute();
    expect(keys.map((k) => k.id)).toEqual([created.id]);
    expect(await db.selectFrom("invitations").select("id").where("orgId", "=", organization.id).execute()).toEqual([]);
    expect(await projectCount(organization.id)).toBe(1);
    expect(await db.selectFrom("organizations").select("id").where("id", "=", organization.id).executeTakeFirst()).toBeDefined();
    // The session of the same owner is not limited by any key's scopes.
    expect((await client.post("/api/invitations", { email: "colleague@example.com", role: "member" })).status).toBe(201);
  });

  it("is refused by the domain functions themselves, not only at the API boundary", async () => {
    const { client, organization } = await owner();
    const { key } = await mint(client, { name: "ci", scopes: ["read", "write"] });
    const { actor } = await actorFromApiKey(key, { ip: null, userAgent: null });
    expect(actor.apiKeyScopes).toEqual(["read", "write"]);
    const forbidden = { code: "FORBIDDEN", status: 403, message: "This API key lacks the admin scope" };
    await expect(createApiKey(actor, createApiKeySchema.parse({ name: "direct" }))).rejects.toMatchObject(forbidden);
    await expect(revokeApiKey(actor, actor.apiKeyId!)).rejects.toMatchObject(forbidden);
    await expect(deleteAllProjects(actor, organization.name)).rejects.toMatchObject(forbidden);
    await expect(deleteOrganization(actor, organization.name)).rejects.toMatchObject(forbidden);
    expect(await db.selectFrom("organizations").select("id").where("id", "=", organization.id).executeTakeFirst()).toBeDefined();
  });
});

describe("an admin key", () => {
  it("mints keys with the scopes asked for, and the minted keys are limited to them", async () => {
    const { client, organization } = await owner();
    const adminKey = await mint(client, { name: "provisioner", scopes: ["admin"] });
    expect(adminKey.scopes).toEqual(FULL);
    const caller = bare();

    const readOnly = await mint(caller, { name: "minted reader", scopes: ["read"] }, adminKey.key);
    expect(readOnly.scopes).toEqual(["read"]);
    expect((await caller.get("/api/projects", { key: readOnly.key })).status).toBe(200);
    expectScopeError(await caller.post("/api/projects", { name: "Nope" }, { key: readOnly.key }), "write");

    // Without `scopes`, a key minted by a key gets the minting key's own scopes.
    const inherited = await mint(caller, { name: "minted default" }, adminKey.key);
    expect(inherited.scopes).toEqual(FULL);

    // It can administer the organization.
    expect((await caller.post("/api/invitations", { email: "new-admin@example.com", role: "admin" }, { key: adminKey.key })).status).toBe(201);
    const deleted = await caller.post("/api/admin/settings/delete-organization", { confirmName: organization.name }, { key: adminKey.key });
    expect(deleted.status, deleted.text).toBe(200);
  });

  it("cannot act beyond its creator's role: a member's admin-scope key cannot administer", async () => {
    const { client, user: creator, organization } = await owner();
    const { key } = await mint(client, { name: "all-powerful", scopes: ["admin"] });
    await db.updateTable("memberships").set({ role: "member" }).where("userId", "=", creator.id).where("orgId", "=", organization.id).execute();
    const caller = bare();
    // What a member may do, the key may do...
    expect((await caller.post("/api/projects", { name: "Member work" }, { key })).status).toBe(201);
    // ...and nothing more, whatever its scopes say.
    expectError(await caller.post(KEYS, { name: "minted" }, { key }), 403, "FORBIDDEN");
    expectError(await caller.post("/api/invitations", { email: "x@example.com", role: "admin" }, { key }), 403, "FORBIDDEN");
    expectError(await caller.post("/api/admin/settings/delete-organization", { confirmName: organization.name }, { key }), 403, "FORBIDDEN");
    await db.updateTable("memberships").set({ role: "viewer" }).where("userId", "=", creator.id).where("orgId", "=", organization.id).execute();
    expectError(await caller.post("/api/projects", { name: "Viewer work" }, { key }), 403, "FORBIDDEN");
  });
});

describe("keys without scopes keep today's access", () => {
  it("a key created without `scopes` holds read, write and admin", async () => {
    const { client } = await owner();
    const created = await mint(client, { name: "classic" });
    expect(created.scopes).toEqual(FULL);
    const caller = bare();
    expect((await caller.post("/api/projects", { name: "Classic" }, { key: created.key })).status).toBe(201);
    expect((await mint(caller, { name: "child" }, created.key)).scopes).toEqual(FULL);
  });

  it("a key row as migration 0017 leaves it (column default) still administers", async () => {
    const { user: creator, organization } = await owner();
    const raw = `svc_${crypto.randomBytes(20).toString("hex")}`;
    const id = newId();
    // The columns a key had before scopes existed: the default fills `scopes`.
    await sql`INSERT INTO apiKeys (id, orgId, userId, name, prefix, keyHash, rateLimit, expiresAt, lastUsedAt, revokedAt, createdAt)
      VALUES (${id}, ${organization.id}, ${creator.id}, 'legacy', ${raw.slice(0, 10)}, ${sha256(raw)}, NULL, NULL, NULL, NULL, ${new Date().toISOString()})`.execute(
      db,
    );
    const caller = bare();
    const listed = await caller.get(KEYS, { key: raw });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.apiKeys.find((k: { id: string }) => k.id === id).scopes).toEqual(FULL);
    expect((await caller.post("/api/projects", { name: "Legacy" }, { key: raw })).status).toBe(201);
    expect((await mint(caller, { name: "from legacy", scopes: ["read"] }, raw)).scopes).toEqual(["read"]);
  });

  it("migration 0017 gives every existing key all three scopes", async () => {
    const sqlite = new SQLite(":memory:");
    const scratch = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      const migrator = new Migrator({ db: scratch, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo("0016_security")).error).toBeUndefined();
      // Foreign keys off on this scratch connection: the key row alone is enough.
      sqlite.pragma("foreign_keys = OFF");
      sqlite
        .prepare(
          "INSERT INTO apiKeys (id, orgId, userId, name, prefix, keyHash, createdAt) VALUES ('k1', 'o1', 'u1', 'old', 'svc_abcdef', 'hash', '2024-01-01T00:00:00.000Z')",
        )
        .run();
      expect((await migrator.migrateTo("0017_api_key_scopes")).error).toBeUndefined();
      const row = sqlite.prepare("SELECT scopes FROM apiKeys WHERE id = 'k1'").get() as { scopes: string };
      expect(JSON.parse(row.scopes)).toEqual(FULL);
      // Not JSON, or not a list: refused by the column's CHECK.
      expect(() => sqlite.prepare("UPDATE apiKeys SET scopes = 'admin' WHERE id = 'k1'").run()).toThrow(/CHECK/);
    } finally {
      await scratch.destroy();
    }
  });
});

describe("the scopes field", () => {
  it("is validated: non-empty, known names only; duplicates ignored, implied scopes added", async () => {
    const { client } = await owner();
    for (const scopes of [[], ["superuser"], "admin"]) {
      const res = await client.post(KEYS, { name: "bad", scopes });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details.some((d: { path: string }) => d.path.startsWith("scopes"))).toBe(true);
    }
    expect((await mint(client, { name: "dup", scopes: ["read", "read"] })).scopes).toEqual(["read"]);
    expect((await mint(client, { name: "write+admin", scopes: ["admin", "write"] })).scopes).toEqual(FULL);
    const row = await db.selectFrom("apiKeys").select("scopes").where("name", "=", "dup").executeTakeFirstOrThrow();
    expect(JSON.parse(row.scopes)).toEqual(["read"]);
  });

  it("is in the OpenAPI document (request and both responses)", async () => {
    const doc = (await bare().get("/api/openapi.json")).body;
    const post = doc.paths[KEYS].post;
    const input = post.requestBody.content["application/json"].schema;
    expect(input.properties.scopes.items.enum).toEqual(FULL);
    expect(input.required ?? []).not.toContain("scopes");
    expect(JSON.stringify(post.responses["201"])).toContain('"scopes"');
    expect(JSON.stringify(doc.paths[KEYS].get.responses["200"])).toContain('"scopes"');
  });
});

describe("contract scope declarations", () => {
  it("organization administration needs the admin scope; content changes need write; GETs need read", () => {
    const adminOnly = [
      apiKeys.createApiKey,
      apiKeys.revokeApiKey,
      administration.deleteOrganization,
      administration.deleteAllProjects,
      organization.transferOwnership,
      organization.changeMemberRole,
      organization.removeMember,
      organization.createInvitation,
      organization.resendInvitation,
      organization.cancelInvitation,
      organization.invitationLink,
      organization.updateOrgSettings,
      webhooks.createWebhook,
      webhooks.updateWebhook,
      webhooks.deleteWebhook,
      admin.addIpAllowlistEntry,
      admin.deleteIpAllowlistEntry,
      billing.createCheckout,
      billing.createPortal,
      user.deleteAccount,
    ];
    for (const c of adminOnly) expect(requiredScope(c), `${c.method} ${c.path}`).toBe("admin");
    expect(requiredScope(projects.createProject)).toBe("write");
    expect(requiredScope(projects.deleteProject)).toBe("write");
    expect(requiredScope(projects.listProjects)).toBe("read");
    expect(requiredScope(apiKeys.listApiKeys)).toBe("read");
  });

  it("no change only owners or admins may make is open to a key below admin", () => {
    const weaker = allContracts.filter(
      (c) => c.method !== "GET" && c.roles?.length && c.roles.every((r) => r === "owner" || r === "admin") && requiredScope(c) !== "admin",
    );
    expect(weaker.map((c) => `${c.method} ${c.path}`)).toEqual([]);
  });
});

describe("the API keys settings page", () => {
  const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
  const postForm = (client: TestClient, fields: [string, string][]) =>
    client.call("POST", "/settings/api-keys", { body: new URLSearchParams(fields), headers: FORM_HEADERS });

  it("offers Read, Write and Admin checkboxes (Read and Write ticked) and needs at least one", async () => {
    const { client } = await owner();
    const page = await client.get("/settings/api-keys");
    expect(page.status).toBe(200);
    for (const scope of ["read", "write", "admin"]) {
      expect(page.text).toMatch(new RegExp(`<input[^>]*name="scopes"[^>]*value="${scope}"`));
      expect(page.text).toMatch(new RegExp(`<label[^>]*for="field-scopes-${scope}"`));
    }
    const box = (scope: string) => (page.text.match(/<input[^>]*>/g) ?? []).find((tag) => tag.includes(`value="${scope}"`)) ?? "";
    expect(box("read")).toMatch(/\bchecked\b/);
    expect(box("write")).toMatch(/\bchecked\b/);
    expect(box("admin")).not.toMatch(/\bchecked\b/);
    expect(pageText(page)).toContain("What the key may do");

    const none = await postForm(client, [
      ["intent", "create"],
      ["name", "nothing"],
    ]);
    expect(none.status).toBe(400);
    expect(pageText(none)).toContain("Choose at least one scope");
    expect(await db.selectFrom("apiKeys").select("id").where("name", "=", "nothing").execute()).toEqual([]);
  });

  it("creates a read-only key from the form, without JavaScript", async () => {
    const { client, organization } = await owner();
    const posted = await postForm(client, [
      ["intent", "create"],
      ["name", "Read-only dashboard"],
      ["expiresAt", ""],
      ["scopes", "read"],
    ]);
    expect(posted.status, posted.text).toBe(302);
    const page = await client.get("/settings/api-keys");
    const key = /data-testid="new-api-key">([^<]+)</.exec(page.text)?.[1];
    expect(key).toMatch(/^svc_[0-9a-f]{40}$/);
    expect(pageText(page)).toContain("Read only");

    const row = await db.selectFrom("apiKeys").select("scopes").where("orgId", "=", organization.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.scopes)).toEqual(["read"]);
    const caller = bare();
    expect((await caller.get("/api/projects", { key })).status).toBe(200);
    expectScopeError(await caller.post("/api/projects", { name: "Nope" }, { key }), "write");
  });
});
