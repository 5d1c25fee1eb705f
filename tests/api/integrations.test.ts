import { beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { sha256 } from "~/utils/ids.server";
import { TestClient, signedUpClient } from "../support/client";
import { authorizeAt, connect, useIntegrationMocks } from "../support/integrations";
import { type Account, expectError, joinOrg } from "../support/org";

/** OAuth connect / callback / status / disconnect for notes (Notion), wiki (Confluence) and docs (Google). */

const mocks = useIntegrationMocks();
const REDIRECT = (p: string) => `http://localhost:3000/api/integrations/${p}/callback`;

let owner: Account;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Olive Owner" });
});

const connectionRow = (userId: string, provider: "notes" | "wiki" | "docs") =>
  db.selectFrom("integrationConnections").selectAll().where("userId", "=", userId).where("provider", "=", provider).executeTakeFirst();

const callback = (client: TestClient, provider: string, query: string) => client.get(`/api/integrations/${provider}/callback?${query}`);
const errorOf = (location: string | null) => new URL(location ?? "", "http://x").searchParams.get("error");

describe("GET /api/integrations/{provider}/connect", () => {
  it("returns the Notion authorization URL with client_id, redirect_uri, response_type, owner and a state stored only as its hash", async () => {
    const res = await owner.client.get("/api/integrations/notes/connect");
    expect(res.status, res.text).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe("https://api.notion.com/v1/oauth/authorize");
    const q = url.searchParams;
    expect(q.get("client_id")).toBe(mocks.notes.client.id);
    expect(q.get("redirect_uri")).toBe(REDIRECT("notes"));
    expect(q.get("response_type")).toBe("code");
    expect(q.get("owner")).toBe("user");
    const state = q.get("state")!;
    expect(state.length).toBeGreaterThanOrEqual(40);
    const stored = await db.selectFrom("oauthStates").selectAll().where("userId", "=", owner.user.id).execute();
    expect(stored.map((s) => s.stateHash)).toContain(sha256(state));
    expect(JSON.stringify(stored)).not.toContain(state);
    const row = stored.find((s) => s.stateHash === sha256(state))!;
    expect(row).toMatchObject({ provider: "notes", orgId: owner.organization.id, codeVerifier: null });
    const ttl = Date.parse(row.expiresAt) - Date.parse(row.createdAt);
    expect(ttl).toBe(10 * 60_000);
  });

  it("asks Confluence for offline access with the 3LO audience, and Google with PKCE S256 and offline access", async () => {
    const wiki = new URL((await owner.client.get("/api/integrations/wiki/connect")).body.url);
    expect(`${wiki.origin}${wiki.pathname}`).toBe("https://auth.atlassian.com/authorize");
    expect(wiki.searchParams.get("audience")).toBe("api.atlassian.com");
    expect(wiki.searchParams.get("scope")!.split(" ")).toEqual(expect.arrayContaining(["write:confluence-content", "offline_access"]));
    expect(wiki.searchParams.get("redirect_uri")).toBe(REDIRECT("wiki"));
    expect(wiki.searchParams.get("client_id")).toBe(mocks.wiki.client.id);
    const docs = new URL((await owner.client.get("/api/integrations/docs/connect")).body.url);
    expect(`${docs.origin}${docs.pathname}`).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(docs.searchParams.get("scope")!.split(" ")).toContain("https://www.googleapis.com/auth/drive.file");
    expect(docs.searchParams.get("code_challenge_method")).toBe("S256");
    expect(docs.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(docs.searchParams.get("access_type")).toBe("offline");
    const state = docs.searchParams.get("state")!;
    const row = await db.selectFrom("oauthStates").selectAll().where("stateHash", "=", sha256(state)).executeTakeFirstOrThrow();
    expect(row.codeVerifier).toBeTruthy();
    expect(row.codeVerifier).not.toContain(docs.searchParams.get("code_challenge"));
  });

  it("needs a signed-in caller, and answers 409 naming the variables when the service is not configured", async () => {
    expectError(await new TestClient("10.60.0.1").get("/api/integrations/notes/connect"), 401, "UNAUTHORIZED");
    const saved = { id: process.env.DOCS_CLIENT_ID, secret: process.env.DOCS_CLIENT_SECRET };
    delete process.env.DOCS_CLIENT_ID;
    delete process.env.DOCS_CLIENT_SECRET;
    resetConfigForTests();
    try {
      const res = await owner.client.get("/api/integrations/docs/connect");
      expectError(res, 409, "CONFLICT");
      expect(res.body.error).toContain("DOCS_CLIENT_ID");
      expect(res.body.error).toContain("DOCS_CLIENT_SECRET");
    } finally {
      process.env.DOCS_CLIENT_ID = saved.id;
      process.env.DOCS_CLIENT_SECRET = saved.secret;
      resetConfigForTests();
    }
  });
});

describe("GET /api/integrations/{provider}/callback", () => {
  it("stores the Notion tokens encrypted and reports the workspace as connected, to its owner only", async () => {
    const account = await signedUpClient({ name: "Nora Notes" });
    const res = await connect(account.client, "notes", mocks);
    expect(res.headers.get("Set-Cookie")).toContain("__flash=");
    const exchange = mocks.notes.requests.filter((r) => r.path === "/v1/oauth/token").at(-1)!;
    expect(exchange.headers.authorization).toBe(`Basic ${Buffer.from(`${mocks.notes.client.id}:${mocks.notes.client.secret}`).toString("base64")}`);
    expect(exchange.body).toMatchObject({ grant_type: "authorization_code", redirect_uri: REDIRECT("notes") });
    const row = (await connectionRow(account.user.id, "notes"))!;
    expect(row.orgId).toBe(account.organization.id);
    expect(row.accessToken).not.toMatch(/^at_/);
    expect(decrypt(row.accessToken)).toMatch(/^at_[0-9a-f]{24}$/);
    expect(decrypt(row.refreshToken!)).toMatch(/^rt_/);
    expect(row).toMatchObject({ workspaceId: mocks.notes.workspace.id, workspaceName: "Acme Product Wiki", accountEmail: "pat@acme.example" });

    const status = await account.client.get("/api/integrations/status");
    expect(status.status).toBe(200);
    expect(status.body.integrations.notes).toEqual({ connected: true, workspaceName: "Acme Product Wiki", connectedAt: row.createdAt });
    expect(status.body.integrations.wiki).toEqual({ connected: false, workspaceName: null, connectedAt: null });
    expect(status.body.integrations.docs).toEqual({ connected: false, workspaceName: null, connectedAt: null });

    const colleague = await joinOrg(account.organization.id, "admin", "Cole League");
    expect((await colleague.client.get("/api/integrations/status")).body.integrations.notes.connected).toBe(false);
    expect((await owner.client.get("/api/integrations/status")).body.integrations.notes.connected).toBe(false);
    expectError(await colleague.client.post("/api/export/notes", { projectId: "whatever" }), 404, "NOT_FOUND");
  });

  it("completes only in the browser session that started it: a link started by an attacker cannot connect a victim's workspace", async () => {
    // The attacker starts a connect in their own session and sends the approval link to a victim.
    const attacker = await signedUpClient({ name: "Attacker" });
    const lure = await authorizeAt(attacker.client, "wiki", mocks);
    // The victim (signed in to the app in their own browser) approves it: the callback arrives with the victim's session.
    const victim = await signedUpClient({ name: "Victim" });
    const res = await callback(victim.client, "wiki", `code=${lure.code}&state=${lure.state}`);
    expect(res.status).toBe(302);
    expect(errorOf(res.headers.get("Location"))).toBe("wrong_session");
    expect(await connectionRow(attacker.user.id, "wiki")).toBeUndefined();
    expect(await connectionRow(victim.user.id, "wiki")).toBeUndefined();
    // Nor from a browser with no session at all.
    const other = await authorizeAt(attacker.client, "wiki", mocks);
    const anonymous = await callback(new TestClient("10.60.0.9"), "wiki", `code=${other.code}&state=${other.state}`);
    expect(errorOf(anonymous.headers.get("Location"))).toBe("wrong_session");
    expect(await connectionRow(attacker.user.id, "wiki")).toBeUndefined();
    // The code was never exchanged for the attacker's organization.
    expect(
      mocks.wiki.requests.filter((r) => r.path === "/oauth/token" && [lure.code, other.code].includes(String((r.body as { code?: string }).code))),
    ).toEqual([]);
  });

  it("a flow started with an API key completes in a browser signed in as the same user, and in no one else's", async () => {
    const account = await signedUpClient({ name: "Key Holder" });
    await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", account.organization.id).execute();
    const key = (await account.client.post("/api/admin/rest-api-keys", { name: "connect" })).body.apiKey.key as string;
    const start = async () => {
      const res = await account.client.get("/api/integrations/wiki/connect", { key, cookies: false });
      expect(res.status, res.text).toBe(200);
      return mocks.wiki.authorize(res.body.url);
    };
    const first = await start();
    expect(errorOf((await callback(owner.client, "wiki", `code=${first.code}&state=${first.state}`)).headers.get("Location"))).toBe("wrong_session");
    const second = await start();
    const res = await callback(account.client, "wiki", `code=${second.code}&state=${second.state}`);
    expect(res.headers.get("Location")).toBe("/settings/integrations");
    expect(await connectionRow(account.user.id, "wiki")).toMatchObject({ orgId: account.organization.id, workspaceName: "acme-eng" });
    expect(await connectionRow(owner.user.id, "wiki")).toBeUndefined();
    const token = mocks.wiki.requests.filter((r) => r.path === "/oauth/token").at(-1)!;
    expect(token.body).toMatchObject({
      grant_type: "authorization_code",
      client_id: mocks.wiki.client.id,
      client_secret: mocks.wiki.client.secret,
      redirect_uri: REDIRECT("wiki"),
    });
  });

  it("Google: the PKCE verifier matches the challenge, and the account e-mail names the connection", async () => {
    const account = await signedUpClient();
    await connect(account.client, "docs", mocks);
    const token = mocks.docs.requests.filter((r) => r.path === "/token").at(-1)!;
    expect(token.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    expect((token.body as Record<string, string>).code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect((await account.client.get("/api/integrations/status")).body.integrations.docs).toMatchObject({ connected: true, workspaceName: mocks.docs.email });
  });

  it("refuses unknown, reused, expired and other-provider states, and reports denial and refused codes", async () => {
    const account = await signedUpClient();
    expect(errorOf((await callback(account.client, "notes", "code=x&state=forged")).headers.get("Location"))).toBe("invalid_state");
    expect(errorOf((await callback(account.client, "notes", "code=x")).headers.get("Location"))).toBe("invalid_state");

    const used = await authorizeAt(account.client, "notes", mocks);
    expect((await callback(account.client, "notes", `code=${used.code}&state=${used.state}`)).headers.get("Location")).toBe("/settings/integrations");
    const again = await callback(account.client, "notes", `code=${used.code}&state=${used.state}`);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/settings/integrations?error=invalid_state&provider=notes");

    const late = await authorizeAt(account.client, "notes", mocks);
    await db
      .updateTable("oauthStates")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("stateHash", "=", sha256(late.state))
      .execute();
    expect(errorOf((await callback(account.client, "notes", `code=${late.code}&state=${late.state}`)).headers.get("Location"))).toBe("expired_state");

    const crossed = await authorizeAt(account.client, "notes", mocks);
    expect(errorOf((await callback(account.client, "wiki", `code=${crossed.code}&state=${crossed.state}`)).headers.get("Location"))).toBe("invalid_state");

    const denied = await authorizeAt(account.client, "wiki", mocks);
    expect(errorOf((await callback(account.client, "wiki", `error=access_denied&state=${denied.state}`)).headers.get("Location"))).toBe("access_denied");

    const refused = await authorizeAt(account.client, "docs", mocks);
    const res = await callback(account.client, "docs", `code=not-a-real-code&state=${refused.state}`);
    expect(res.headers.get("Location")).toBe("/settings/integrations?error=token_error&provider=docs");
    expect(await connectionRow(account.user.id, "docs")).toBeUndefined();
    expect(await connectionRow(account.user.id, "wiki")).toBeUndefined();
  });

  it("an Atlassian account without a Confluence site is not connected (no_site)", async () => {
    const account = await signedUpClient();
    mocks.wiki.setSites(false);
    try {
      const { code, state } = await authorizeAt(account.client, "wiki", mocks);
      expect(errorOf((await callback(account.client, "wiki", `code=${code}&state=${state}`)).headers.get("Location"))).toBe("no_site");
      expect(await connectionRow(account.user.id, "wiki")).toBeUndefined();
    } finally {
      mocks.wiki.setSites(true);
    }
  });
});

describe("POST /api/integrations/{provider}/disconnect", () => {
  it("deletes the tokens, revokes them at Notion and Google, and is idempotent", async () => {
    const account = await signedUpClient();
    await connect(account.client, "notes", mocks);
    await connect(account.client, "docs", mocks);
    const revokedBefore = { notes: mocks.notes.counters.revoked, docs: mocks.docs.counters.revoked };
    const res = await account.client.post("/api/integrations/notes/disconnect");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, wasConnected: true });
    expect(await connectionRow(account.user.id, "notes")).toBeUndefined();
    expect(mocks.notes.counters.revoked).toBe(revokedBefore.notes + 1);
    const revoke = mocks.notes.requests.filter((r) => r.path === "/v1/oauth/revoke").at(-1)!;
    expect(revoke.headers["notion-version"]).toBeTruthy();
    expect(revoke.headers.authorization).toMatch(/^Basic /);

    expect((await account.client.post("/api/integrations/docs/disconnect")).body.wasConnected).toBe(true);
    expect(mocks.docs.counters.revoked).toBe(revokedBefore.docs + 1);

    const status = (await account.client.get("/api/integrations/status")).body.integrations;
    expect(status.notes.connected).toBe(false);
    expect(status.docs.connected).toBe(false);
    expect((await account.client.post("/api/integrations/notes/disconnect")).body).toEqual({ success: true, wasConnected: false });
    const audit = await db.selectFrom("auditLogs").select("action").where("actorId", "=", account.user.id).where("action", "like", "integration.%").execute();
    expect(audit.map((a) => a.action).sort()).toEqual([
      "integration.connected",
      "integration.connected",
      "integration.disconnected",
      "integration.disconnected",
    ]);
  });

  it("only touches the caller's own connection", async () => {
    const account = await signedUpClient();
    await connect(account.client, "wiki", mocks);
    const colleague = await joinOrg(account.organization.id, "owner", "Other Owner");
    expect((await colleague.client.post("/api/integrations/wiki/disconnect")).body.wasConnected).toBe(false);
    expect(await connectionRow(account.user.id, "wiki")).toBeDefined();
  });
});

describe("OpenAPI", () => {
  it("documents the integration endpoints", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    for (const p of ["notes", "wiki", "docs"]) {
      expect(doc.paths[`/api/integrations/${p}/connect`].get).toBeDefined();
      expect(doc.paths[`/api/integrations/${p}/disconnect`].post).toBeDefined();
      expect(doc.paths[`/api/export/${p}`].post.responses).toHaveProperty("409");
    }
    expect(doc.paths["/api/integrations/{provider}/callback"].get.responses).toHaveProperty("302");
    expect(doc.paths["/api/integrations/status"].get).toBeDefined();
  });
});
