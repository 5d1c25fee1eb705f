import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectWithPrd } from "../support/integrations";
import { useTrackerStandIn } from "../support/trackers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { rotateEncryptionKey } from "~/ops/rotate-key.server";
import { decrypt } from "~/utils/crypto.server";
import { sha256 } from "~/utils/ids.server";
import { createGithubMock, GITHUB_API_URL } from "../mocks/github";
import { createJiraMock, JIRA_EMAIL } from "../mocks/jira";
import { createLinearMock, LINEAR_API_URL, TEAM_ID } from "../mocks/linear";
import { CLOUD_ID, createTrackerOAuthMock, JIRA_API_URL, JIRA_SITE_URL, TRACKER_OAUTH_CLIENTS, TRACKER_OAUTH_ENV } from "../mocks/tracker-oauth";
import { setEnv } from "../support/ai";
import { GOOD_PASSWORD, signedUpClient, TestClient } from "../support/client";
import { parseHtml } from "../support/html";
import { type Account, expectError, joinOrg } from "../support/org";
import { pageText } from "../support/page";

/**
 * Connecting GitHub, Linear and Jira Cloud with OAuth (docs/trackers.md,
 * "Connecting with OAuth"): the connect URL and its state, the callback and
 * the stored connection, refusals (reused, foreign or expired states,
 * members, the services' own refusals), renewal of an expiring Jira token,
 * a refused renewal, other organizations, and the settings page.
 */

const oauth = createTrackerOAuthMock();
const gh = createGithubMock({ accepts: (token) => oauth.accepts("github", token) });
const linear = createLinearMock({ acceptsBearer: (token) => oauth.accepts("linear", token) });
const jira = createJiraMock({ base: `${JIRA_API_URL}/ex/jira/${CLOUD_ID}`, authorized: (request) => oauth.kits.jira.bearer(request) !== null });
useTrackerStandIn({ ...TRACKER_OAUTH_ENV, GITHUB_API_URL, LINEAR_API_URL }, [...oauth.handlers, ...gh.handlers, ...linear.handlers, ...jira.handlers]);

type Service = "github" | "linear" | "jira";
const STORY = "## Receipts\n\n### Snap a receipt\nAs an employee, I want to photograph a receipt, so that I do not keep paper.\n";
const CALLBACK = (s: Service) => `http://localhost:3000/api/integrations/trackers/${s}/callback`;

let owner: Account;
let other: Account;
let projectId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olive Owner" });
  other = await signedUpClient({ name: "Oscar Other" });
  projectId = await projectWithPrd(owner.client, "Expenses", "# Expenses\n\n## Receipts\n\nSnap receipts.\n");
});

/** Starts the flow through the API and approves it at the stand-in: the code and state the browser brings back. */
async function approve(account: Account, service: Service) {
  const res = await account.client.get(`/api/integrations/trackers/${service}/connect`);
  expect(res.status, res.text).toBe(200);
  return { url: new URL(res.body.url as string), expiresAt: res.body.expiresAt as string, ...oauth.authorize(service, res.body.url) };
}
/** The query the service's redirect carries back. */
const back = (flow: { code: string; state: string }) => ({ code: flow.code, state: flow.state });
const callback = (client: TestClient, service: Service, query: Record<string, string>) =>
  client.get(`/api/integrations/trackers/${service}/callback?${new URLSearchParams(query)}`);
/** Where the callback sent the browser, and the reason when nothing was connected. */
const landing = (res: { status: number; headers: Headers }) => {
  expect(res.status).toBe(302);
  const to = new URL(res.headers.get("Location")!, "http://localhost:3000");
  return { path: to.pathname, error: to.searchParams.get("error") };
};
async function connectWith(account: Account, service: Service) {
  const { code, state } = await approve(account, service);
  const res = await callback(account.client, service, { code, state });
  expect(landing(res)).toEqual({ path: "/settings/trackers", error: null });
  return res;
}
const connections = (orgId: string, service?: Service) =>
  db
    .selectFrom("trackerConnections")
    .selectAll()
    .where("orgId", "=", orgId)
    .$if(Boolean(service), (q) => q.where("service", "=", service!))
    .execute();
const onlyConnection = async (orgId: string, service: Service) => {
  const rows = await connections(orgId, service);
  expect(rows).toHaveLength(1);
  return rows[0]!;
};
const send = (account: Account, connectionId: string, target: string) =>
  account.client.post(`/api/projects/${projectId}/tracker/send`, { connectionId, target, markdown: STORY });

describe("connecting with OAuth", () => {
  it("GitHub: the connect URL carries the client, the callback, scope repo and a single-use state bound to the browser session; the callback stores the token encrypted", async () => {
    const { url, expiresAt, state, code } = await approve(owner, "github");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: TRACKER_OAUTH_CLIENTS.github.id,
      redirect_uri: CALLBACK("github"),
      scope: "repo",
      state,
      allow_signup: "false",
    });
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const pending = await db.selectFrom("oauthStates").selectAll().where("stateHash", "=", sha256(state)).executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ provider: "tracker:github", orgId: owner.organization.id, userId: owner.user.id });
    expect(pending.sessionId).toEqual(expect.any(String));

    const res = await callback(owner.client, "github", { code, state });
    expect(landing(res)).toEqual({ path: "/settings/trackers", error: null });
    const exchange = oauth.kits.github.requests.filter((r) => r.path === "/login/oauth/access_token").at(-1)!;
    expect(exchange.headers.accept).toContain("application/json");
    expect(exchange.body).toEqual({
      client_id: TRACKER_OAUTH_CLIENTS.github.id,
      client_secret: TRACKER_OAUTH_CLIENTS.github.secret,
      code,
      redirect_uri: CALLBACK("github"),
    });

    const row = await onlyConnection(owner.organization.id, "github");
    const token = decrypt(row.tokenEncrypted)!;
    expect(token).toMatch(/^at_[0-9a-f]{24}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ authKind: "oauth", accountLabel: "octocat", refreshTokenEncrypted: null, tokenExpiresAt: null, createdById: owner.user.id });
    expect(pageText(await owner.client.get("/settings/trackers"))).toContain("Connected GitHub as octocat.");
  });

  it("GitHub: the OAuth connection lists repositories and sends a story through GitHub's API", async () => {
    const row = await onlyConnection(owner.organization.id, "github");
    const list = await owner.client.get("/api/integrations/trackers");
    expect(list.body.connections[0]).toMatchObject({ id: row.id, authKind: "oauth", accountLabel: "octocat", needsReconnect: false });
    expect(list.body.oauth).toEqual(["github", "jira", "linear"]);
    const targets = await owner.client.get(`/api/integrations/trackers/${row.id}/targets`);
    expect(targets.body.targets.map((t: { id: string }) => t.id)).toEqual(["acme/app", "acme/other"]);
    const sent = await send(owner, row.id, "acme/app");
    expect(sent.body).toMatchObject({ created: 1, failed: 0 });
    expect(gh.issues.map((i) => [i.repo, i.title])).toEqual([["acme/app", "Snap a receipt"]]);
  });

  it("Linear: scopes read,write; the 24-hour token and its refresh token are stored encrypted, and the API takes the token as Bearer", async () => {
    const { url } = await approve(owner, "linear");
    expect(url.searchParams.get("scope")).toBe("read,write");
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("redirect_uri")).toBe(CALLBACK("linear"));
    await connectWith(owner, "linear");
    const exchange = oauth.kits.linear.requests.filter((r) => r.path === "/oauth/token").at(-1)!;
    expect(exchange.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    expect(exchange.body).toMatchObject({ grant_type: "authorization_code", client_id: TRACKER_OAUTH_CLIENTS.linear.id, redirect_uri: CALLBACK("linear") });
    const row = await onlyConnection(owner.organization.id, "linear");
    expect(row).toMatchObject({ authKind: "oauth", accountLabel: "Lin Ear (lin@acme.test)" });
    expect(decrypt(row.refreshTokenEncrypted!)).toMatch(/^rt_/);
    expect(JSON.stringify(row)).not.toContain(decrypt(row.tokenEncrypted)!);
    expect(Date.parse(row.tokenExpiresAt!) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const targets = await owner.client.get(`/api/integrations/trackers/${row.id}/targets`);
    expect(targets.body.targets.map((t: { id: string }) => t.id)).toContain(TEAM_ID);
    expect((await send(owner, row.id, TEAM_ID)).body).toMatchObject({ created: 1, failed: 0 });
    expect(linear.issues.map((i) => i.title)).toEqual(["Snap a receipt"]);
  });

  it("Jira: audience api.atlassian.com with offline_access; the Jira site (not a Confluence-only one) is kept, and the API is reached through the gateway", async () => {
    const { url } = await approve(owner, "jira");
    expect(url.searchParams.get("audience")).toBe("api.atlassian.com");
    expect(url.searchParams.get("scope")).toBe("read:jira-work write:jira-work read:jira-user offline_access");
    expect(url.searchParams.get("prompt")).toBe("consent");
    await connectWith(owner, "jira");
    const exchange = oauth.kits.jira.requests.filter((r) => r.path === "/oauth/token").at(-1)!;
    expect(exchange.headers["content-type"]).toContain("application/json");
    expect(exchange.body).toMatchObject({ grant_type: "authorization_code", client_secret: TRACKER_OAUTH_CLIENTS.jira.secret, redirect_uri: CALLBACK("jira") });
    const row = await onlyConnection(owner.organization.id, "jira");
    expect(row).toMatchObject({ authKind: "oauth", accountLabel: `Jo Jira (${JIRA_EMAIL})` });
    expect(JSON.parse(row.settings)).toEqual({ cloudId: CLOUD_ID, siteUrl: JIRA_SITE_URL, siteName: "acme" });
    expect(Date.parse(row.tokenExpiresAt!) - Date.now()).toBeGreaterThan(59 * 60_000);
    const targets = await owner.client.get(`/api/integrations/trackers/${row.id}/targets`);
    expect(targets.body.targets[0]).toEqual({ id: "EXP", name: "Expenses (EXP)", url: `${JIRA_SITE_URL}/browse/EXP`, allowed: true });
    const sent = await send(owner, row.id, "EXP");
    expect(sent.body).toMatchObject({ created: 1, failed: 0 });
    expect(sent.body.results[0].issue.url).toBe(`${JIRA_SITE_URL}/browse/EXP-1`);
    expect(jira.issues.map((i) => [i.key, i.issuetype])).toEqual([["EXP-1", "Story"]]);
  });
});

describe("callbacks that connect nothing", () => {
  it("a state is spent once: reusing it is refused, and only one connection exists", async () => {
    const account = await signedUpClient();
    const { code, state } = await approve(account, "github");
    expect(landing(await callback(account.client, "github", { code, state })).error).toBeNull();
    const again = await callback(account.client, "github", { code, state });
    expect(again.headers.get("Location")).toBe("/settings/trackers?error=invalid_state&service=github");
    expect(pageText(await account.client.get("/settings/trackers"))).toContain("This sign-in link is not valid (already used, or not started here)");
    expect(await connections(account.organization.id)).toHaveLength(1);
  });

  it("a state is accepted only from the browser session that started it (not the same user's other session, nor no session), unexpired, for its own service", async () => {
    const account = await signedUpClient();
    const elsewhere = new TestClient("10.77.0.2");
    expect((await elsewhere.post("/api/auth/sign-in", { email: account.email, password: GOOD_PASSWORD })).status).toBe(200);
    const first = await approve(account, "github");
    expect(landing(await callback(elsewhere, "github", back(first))).error).toBe("wrong_session");
    const second = await approve(account, "github");
    expect(landing(await callback(new TestClient("10.77.0.3"), "github", back(second))).error).toBe("wrong_session");
    // Someone else's browser, signed in to another organization: an attacker's link cannot connect the victim's workspace.
    const third = await approve(account, "github");
    expect(landing(await callback(other.client, "github", back(third))).error).toBe("wrong_session");
    const late = await approve(account, "linear");
    await db
      .updateTable("oauthStates")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("stateHash", "=", sha256(late.state))
      .execute();
    expect(landing(await callback(account.client, "linear", back(late))).error).toBe("expired_state");
    const crossed = await approve(account, "linear");
    expect(landing(await callback(account.client, "jira", back(crossed))).error).toBe("invalid_state");
    expect(await connections(account.organization.id)).toEqual([]);
    expect(await connections(other.organization.id)).toEqual([]);
    // None of these codes was ever exchanged.
    const spent = [first, second, third, late, crossed].map((f) => f.code);
    const exchanged = [...oauth.kits.github.requests, ...oauth.kits.linear.requests].map((r) => (r.body as { code?: string }).code);
    expect(exchanged.filter((c) => c && spent.includes(c))).toEqual([]);
  });

  it("the services' refusals in plain words: a declined consent, GitHub's 200 bad_verification_code, Linear's 400 invalid_grant, an Atlassian account without a Jira site", async () => {
    const account = await signedUpClient();
    const declined = await approve(account, "github");
    const res = await callback(account.client, "github", {
      error: "access_denied",
      error_description: "The user has denied your application access.",
      state: declined.state,
    });
    expect(landing(res).error).toBe("access_denied");
    expect(pageText(await account.client.get("/settings/trackers"))).toContain("You declined access in GitHub, so nothing was connected.");
    const badGithub = await approve(account, "github");
    expect(landing(await callback(account.client, "github", { code: "not-a-code", state: badGithub.state })).error).toBe("token_error");
    const page = await account.client.get("/settings/trackers");
    expect(parseHtml(page.text).querySelector(".alert-error")?.textContent).toBe(
      "GitHub did not accept the sign-in, so nothing was connected. Start again with “Connect with GitHub”.",
    );
    const badLinear = await approve(account, "linear");
    expect(landing(await callback(account.client, "linear", { code: "not-a-code", state: badLinear.state })).error).toBe("token_error");
    oauth.setSites(false);
    try {
      const noSite = await approve(account, "jira");
      expect(landing(await callback(account.client, "jira", back(noSite))).error).toBe("no_site");
    } finally {
      oauth.setSites(true);
    }
    expect(await connections(account.organization.id)).toEqual([]);
  });
});

describe("who may connect", () => {
  it("members cannot start (403, API and page) and see no connect controls; an admin demoted before the callback connects nothing", async () => {
    const member = await joinOrg(owner.organization.id, "member", "Mo Member");
    expectError(await member.client.get("/api/integrations/trackers/github/connect"), 403, "FORBIDDEN");
    const form = { body: new URLSearchParams({ intent: "oauth", service: "github" }), headers: { "Content-Type": "application/x-www-form-urlencoded" } };
    const posted = await member.client.call("POST", "/settings/trackers", form);
    expect(posted.status).toBe(403);
    expect(await db.selectFrom("oauthStates").select("stateHash").where("userId", "=", member.user.id).execute()).toEqual([]);
    const admin = await joinOrg(owner.organization.id, "admin", "Ada Admin");
    const flow = await approve(admin, "linear");
    await db.updateTable("memberships").set({ role: "member" }).where("userId", "=", admin.user.id).execute();
    expect(landing(await callback(admin.client, "linear", back(flow))).error).toBe("not_allowed");
    expect(await connections(owner.organization.id, "linear")).toHaveLength(1);
  });

  it("another organization neither sees nor uses these connections; connecting the same GitHub account there makes its own", async () => {
    const ours = await onlyConnection(owner.organization.id, "github");
    expect((await other.client.get("/api/integrations/trackers")).body.connections).toEqual([]);
    expectError(await other.client.get(`/api/integrations/trackers/${ours.id}/targets`), 404, "NOT_FOUND");
    const theirs = await projectWithPrd(other.client, "Theirs", "");
    expectError(
      await other.client.post(`/api/projects/${theirs}/tracker/send`, { connectionId: ours.id, target: "acme/app", markdown: STORY }),
      404,
      "NOT_FOUND",
    );
    await connectWith(other, "github");
    const made = await onlyConnection(other.organization.id, "github");
    expect(made.id).not.toBe(ours.id);
    expect(await onlyConnection(owner.organization.id, "github")).toEqual(ours);
  });

  it("409 naming the variables when the server has no OAuth client for the service", async () => {
    const saved = { id: process.env.JIRA_CLIENT_ID, secret: process.env.JIRA_CLIENT_SECRET };
    delete process.env.JIRA_CLIENT_ID;
    delete process.env.JIRA_CLIENT_SECRET;
    resetConfigForTests();
    try {
      const res = await owner.client.get("/api/integrations/trackers/jira/connect");
      expectError(res, 409, "CONFLICT");
      expect(res.body.error).toContain("JIRA_CLIENT_ID and JIRA_CLIENT_SECRET");
      expect((await owner.client.get("/api/integrations/trackers")).body.oauth).toEqual(["github", "linear"]);
    } finally {
      Object.assign(process.env, { JIRA_CLIENT_ID: saved.id, JIRA_CLIENT_SECRET: saved.secret });
      resetConfigForTests();
    }
  });
});

describe("renewing Jira's hour-long tokens", () => {
  const expireSoon = (id: string, ms: number) =>
    db
      .updateTable("trackerConnections")
      .set({ tokenExpiresAt: new Date(Date.now() + ms).toISOString() })
      .where("id", "=", id)
      .execute();

  it("a token expiring within a minute is renewed before the call, and the rotated refresh token is saved encrypted", async () => {
    const before = await onlyConnection(owner.organization.id, "jira");
    const oldRefresh = decrypt(before.refreshTokenEncrypted!)!;
    await expireSoon(before.id, 30_000);
    // At Atlassian the old access token no longer works: without a renewal the call would be refused.
    oauth.kits.jira.expireAccessTokens();
    const refreshed = oauth.kits.jira.counters.refreshed;
    const targets = await owner.client.get(`/api/integrations/trackers/${before.id}/targets`);
    expect(targets.status, targets.text).toBe(200);
    expect(oauth.kits.jira.counters.refreshed).toBe(refreshed + 1);
    const asked = oauth.kits.jira.requests.filter((r) => r.path === "/oauth/token").at(-1)!;
    expect(asked.body).toEqual({
      grant_type: "refresh_token",
      client_id: TRACKER_OAUTH_CLIENTS.jira.id,
      client_secret: TRACKER_OAUTH_CLIENTS.jira.secret,
      refresh_token: oldRefresh,
    });
    const after = await onlyConnection(owner.organization.id, "jira");
    const newRefresh = decrypt(after.refreshTokenEncrypted!)!;
    expect(newRefresh).toMatch(/^rt_/);
    expect(newRefresh).not.toBe(oldRefresh);
    expect(JSON.stringify(after)).not.toContain(newRefresh);
    expect(decrypt(after.tokenEncrypted)).not.toBe(decrypt(before.tokenEncrypted));
    expect(Date.parse(after.tokenExpiresAt!) - Date.now()).toBeGreaterThan(59 * 60_000);
    // A token with time left is used as it is.
    await owner.client.get(`/api/integrations/trackers/${before.id}/targets`);
    expect(oauth.kits.jira.counters.refreshed).toBe(refreshed + 1);
  });

  it("on a LiteFS replica a token to renew is never renewed there: the API replays on the primary, a preview needs no renewal", async () => {
    const conn = await onlyConnection(owner.organization.id, "jira");
    await expireSoon(conn.id, 30_000);
    const refreshed = oauth.kits.jira.counters.refreshed;
    const litefsDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-trackers-replica-"));
    fs.writeFileSync(path.join(litefsDir, ".primary"), "primary-machine");
    process.env.LITEFS_DIR = litefsDir;
    resetConfigForTests();
    try {
      const targets = await owner.client.get(`/api/integrations/trackers/${conn.id}/targets`);
      expect(targets.status).toBe(409);
      expect(targets.headers.get("fly-replay")).toBe("instance=primary-machine");
      const preview = await owner.client.get(`/projects/${projectId}/tracker?connectionId=${conn.id}&target=EXP`);
      expect(preview.status).toBe(200);
      expect(oauth.kits.jira.counters.refreshed).toBe(refreshed);
      expect((await onlyConnection(owner.organization.id, "jira")).refreshTokenEncrypted).toBe(conn.refreshTokenEncrypted);
    } finally {
      delete process.env.LITEFS_DIR;
      resetConfigForTests();
      fs.rmSync(litefsDir, { recursive: true, force: true });
    }
    // On the primary the same call renews once.
    expect((await owner.client.get(`/api/integrations/trackers/${conn.id}/targets`)).status).toBe(200);
    expect(oauth.kits.jira.counters.refreshed).toBe(refreshed + 1);
  });

  it("a renewal Atlassian refuses (invalid_grant) marks the connection “Needs reconnecting”; connecting again renews the same connection", async () => {
    const row = await onlyConnection(owner.organization.id, "jira");
    await expireSoon(row.id, -5000);
    oauth.kits.jira.invalidateRefreshTokens();
    const res = await owner.client.get(`/api/integrations/trackers/${row.id}/targets`);
    expectError(res, 409, "CONFLICT");
    expect(res.body.error).toBe(
      "Jira no longer accepts this connection's sign-in (it was revoked or has expired). An owner or admin must connect Jira again in Settings → Issue trackers.",
    );
    expectError(await send(owner, row.id, "EXP"), 409, "CONFLICT");
    const marked = await onlyConnection(owner.organization.id, "jira");
    expect(marked.lastError).toMatch(/^Needs reconnecting: Jira refused to renew/);
    const listed = (await owner.client.get("/api/integrations/trackers")).body.connections.find((c: { id: string }) => c.id === row.id);
    expect(listed).toMatchObject({ needsReconnect: true, authKind: "oauth" });
    const doc = parseHtml((await owner.client.get("/settings/trackers")).text);
    const card = doc.querySelector(`section[aria-labelledby="tracker-${row.id}"]`)!;
    expect(card.textContent).toContain("Needs reconnecting");
    expect([...card.querySelectorAll("button")].map((b) => b.textContent)).toContain("Reconnect with Jira");

    await connectWith(owner, "jira");
    const renewed = await onlyConnection(owner.organization.id, "jira");
    expect(renewed).toMatchObject({ id: row.id, lastError: null, webhookSecretEncrypted: row.webhookSecretEncrypted });
    expect(pageText(await owner.client.get("/settings/trackers"))).toContain(
      "Connected Jira as Jo Jira (jo@acme.test). Its webhook URL and secret are unchanged.",
    );
    expect((await owner.client.get(`/api/integrations/trackers/${row.id}/targets`)).status).toBe(200);
  });
});

describe("the settings page", () => {
  const buttons = (html: string) => [...parseHtml(html).querySelectorAll("section[aria-labelledby=oauth-heading] button")].map((b) => b.textContent);

  it("admins get a “Connect with …” button per configured service (plain POST forms) above the token form; members get none", async () => {
    const admin = await owner.client.get("/settings/trackers");
    const doc = parseHtml(admin.text);
    expect(buttons(admin.text)).toEqual(["Connect with GitHub", "Connect with Jira", "Connect with Linear"]);
    const forms = [...doc.querySelectorAll("section[aria-labelledby=oauth-heading] form")];
    expect(forms.map((f) => f.getAttribute("method"))).toEqual(["post", "post", "post"]);
    expect(doc.querySelector("#connect-heading")?.textContent).toBe("Or paste a GitHub token");
    const headings = [...doc.querySelectorAll("h3")].map((h) => h.id).filter((id) => id.endsWith("-heading"));
    expect(headings).toEqual(["oauth-heading", "connect-heading"]);
    const kinds = [...doc.querySelectorAll(".tracker-auth-kind")].map((b) => b.textContent);
    expect(kinds).toContain("Connected with OAuth");
    // The consent pages the buttons redirect to are allowed as form targets.
    const formAction = /form-action ([^;]+)/.exec(admin.headers.get("Content-Security-Policy") ?? "")?.[1]?.split(" ");
    expect(formAction).toEqual(expect.arrayContaining(["https://github.test", "https://linear.test", "https://auth.atlassian.test"]));

    const member = await joinOrg(owner.organization.id, "member", "Meg Member");
    const seen = await member.client.get("/settings/trackers");
    expect(seen.status).toBe(200);
    expect(buttons(seen.text)).toEqual([]);
    expect(seen.text).not.toContain("Connect with");
    expect(parseHtml(seen.text).querySelector("#field-token")).toBeNull();
    expect(pageText(seen)).toContain("octocat");
  });

  it("the “Connect with GitHub” form sends the browser to GitHub's consent page with a new state", async () => {
    const form = { body: new URLSearchParams({ intent: "oauth", service: "github" }), headers: { "Content-Type": "application/x-www-form-urlencoded" } };
    const res = await owner.client.call("POST", "/settings/trackers", form);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("Location")!);
    expect(`${to.origin}${to.pathname}`).toBe("https://github.test/login/oauth/authorize");
    const state = to.searchParams.get("state")!;
    expect(await db.selectFrom("oauthStates").select("provider").where("stateHash", "=", sha256(state)).executeTakeFirst()).toEqual({
      provider: "tracker:github",
    });
  });

  it("without OAuth clients the page offers tokens only; a member of an organization with nothing connected is told an admin can connect one", async () => {
    const saved = Object.fromEntries(Object.keys(TRACKER_OAUTH_ENV).map((k) => [k, process.env[k]]));
    for (const k of Object.keys(saved)) delete process.env[k];
    resetConfigForTests();
    try {
      const page = await owner.client.get("/settings/trackers");
      expect(buttons(page.text)).toEqual([]);
      expect(parseHtml(page.text).querySelector("#connect-heading")?.textContent).toBe("Connect GitHub");
      expect(page.headers.get("Content-Security-Policy")).not.toContain("github.test");
    } finally {
      Object.assign(process.env, saved);
      resetConfigForTests();
    }
    const fresh = await signedUpClient({ name: "Nina New" });
    const member = await joinOrg(fresh.organization.id, "member", "Max Member");
    const seen = await member.client.get("/settings/trackers");
    expect(pageText(seen)).toContain(
      "No tracker is connected yet. An owner or admin of your organization can connect GitHub, Linear or Jira here: ask one of them.",
    );
    expect(buttons(seen.text)).toEqual([]);
  });
});

describe("encryption key rotation", () => {
  afterAll(() => setEnv({ ENCRYPTION_KEY: undefined }));

  it("re-encrypts the OAuth tokens and webhook secrets of tracker connections; they still work under the new key", async () => {
    const before = await onlyConnection(owner.organization.id, "jira");
    const plain = { token: decrypt(before.tokenEncrypted), refresh: decrypt(before.refreshTokenEncrypted!), secret: decrypt(before.webhookSecretEncrypted) };
    const result = await rotateEncryptionKey(db, { currentKey: config().ENCRYPTION_KEY });
    expect(result.skipped).toEqual([]);
    setEnv({ ENCRYPTION_KEY: result.newKey });
    const after = await onlyConnection(owner.organization.id, "jira");
    expect(after.refreshTokenEncrypted).not.toBe(before.refreshTokenEncrypted);
    expect({ token: decrypt(after.tokenEncrypted), refresh: decrypt(after.refreshTokenEncrypted!), secret: decrypt(after.webhookSecretEncrypted) }).toEqual(
      plain,
    );
    await expireSoonAgain(after.id);
    expect((await owner.client.get(`/api/integrations/trackers/${after.id}/targets`)).status).toBe(200);
    expect(decrypt((await onlyConnection(owner.organization.id, "jira")).refreshTokenEncrypted!)).not.toBe(plain.refresh);
  });
});

/** An access token about to expire: the next call renews it with the (re-encrypted) refresh token. */
const expireSoonAgain = (id: string) =>
  db
    .updateTable("trackerConnections")
    .set({ tokenExpiresAt: new Date(Date.now() + 10_000).toISOString() })
    .where("id", "=", id)
    .execute();
