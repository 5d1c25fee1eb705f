import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { decrypt } from "~/utils/crypto.server";
import { createSlackMock, SLACK_API, SLACK_CLIENT } from "../mocks/slack";
import { type TestClient, signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

/** Slack: OAuth connect, routing, messages through the job queue, failures, and who may see and change what. */

registerBackgroundWork();
const slack = createSlackMock();
const server = setupServer(...slack.handlers);
const ENV = { SLACK_CLIENT_ID: SLACK_CLIENT.id, SLACK_CLIENT_SECRET: SLACK_CLIENT.secret, SLACK_API_URL: SLACK_API };

beforeAll(() => {
  Object.assign(process.env, ENV);
  resetConfigForTests();
  server.listen({ onUnhandledRequest: "error" });
});
afterAll(() => {
  server.close();
  for (const k of Object.keys(ENV)) delete process.env[k];
  resetConfigForTests();
});

const form = (client: TestClient, path: string, values: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(values), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

async function connectSlack(client: TestClient) {
  const start = await client.post("/api/integrations/slack/connect");
  expect(start.status, start.text).toBe(200);
  const { code, state } = slack.authorize(start.body.url);
  const res = await client.get(`/api/integrations/slack/callback?code=${code}&state=${encodeURIComponent(state)}`);
  expect(res.status, res.text).toBe(302);
  expect(res.headers.get("Location")).toBe("/settings/slack");
  return start.body.url as string;
}

const postedSince = (n: number) => slack.state.posted.slice(n);
/** Runs the worker as if `seconds` had passed (by default one, so what the dispatch just queued is due too). */
const runJobs = (seconds = 1) => runDueJobs({ now: new Date(Date.now() + seconds * 1000) });

let owner: Account;
let member: Account;
let projectId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "pro");
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  projectId = (await owner.client.post("/api/projects", { name: "Project Heron" })).body.id;
});

describe("connecting a workspace", () => {
  it("sends the admin to Slack's OAuth v2 page, exchanges the code and keeps the bot token encrypted", async () => {
    const url = new URL(await connectSlack(owner.client));
    expect(`${url.origin}${url.pathname}`).toBe("https://slack.com/oauth/v2/authorize");
    expect(url.searchParams.get("client_id")).toBe(SLACK_CLIENT.id);
    expect(url.searchParams.get("scope")).toBe("chat:write,channels:read,groups:read");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3000/api/integrations/slack/callback");
    const row = await db.selectFrom("slackConnections").selectAll().where("orgId", "=", owner.organization.id).executeTakeFirstOrThrow();
    const token = [...slack.state.tokens.keys()].find((t) => decrypt(row.accessToken) === t);
    expect(token).toBeTruthy();
    expect(row.accessToken).not.toContain("xoxb-");
    expect(row.teamName).toMatch(/^Acme Workspace/);
    const status = await owner.client.get("/api/integrations/slack");
    expect(status.body).toMatchObject({ configured: true, connected: true, needsReconnect: false, teamName: row.teamName });
    const page = await owner.client.get("/settings/slack");
    expect(page.status).toBe(200);
    expect(pageText(page)).toContain(`Workspace ${row.teamName}`);
  });

  it("refuses a forged or replayed state, and a state started in another browser session", async () => {
    const forged = await owner.client.get("/api/integrations/slack/callback?code=x&state=forged-state");
    expect(forged.headers.get("Location")).toBe("/settings/slack?error=invalid_state");
    const start = await owner.client.post("/api/integrations/slack/connect");
    const { code, state } = slack.authorize(start.body.url);
    const other = await signedUpClient();
    const elsewhere = await other.client.get(`/api/integrations/slack/callback?code=${code}&state=${encodeURIComponent(state)}`);
    expect(elsewhere.headers.get("Location")).toBe("/settings/slack?error=wrong_session");
    // The state was used up by that attempt.
    const replay = await owner.client.get(`/api/integrations/slack/callback?code=${code}&state=${encodeURIComponent(state)}`);
    expect(replay.headers.get("Location")).toBe("/settings/slack?error=invalid_state");
  });
});

describe("routing and messages", () => {
  it("lists every page of channels and saves the default and per-kind channels with their names", async () => {
    const page = await owner.client.get("/settings/slack");
    const options = [...parseHtml(page.text).querySelectorAll("#field-defaultChannelId option")].map((o) => o.textContent);
    expect(options).toEqual(["No default (post nothing)", "#design", "#general", "#product", "#random", "#reviews"]);
    const bad = await owner.client.call("PUT", "/api/integrations/slack", { json: { defaultChannelId: "C99NOPE" } });
    expectError(bad, 400, "VALIDATION_ERROR");
    const saved = await form(owner.client, "/settings/slack", {
      intent: "routing",
      defaultChannelId: "C00CHAN",
      channel_review_requested: "C02CHAN",
      channel_mention: "",
    });
    expect(saved.status, saved.text).toBe(200);
    expect(pageText(saved)).toContain("Channels saved.");
    const status = (await owner.client.get("/api/integrations/slack")).body;
    expect(status.routing.defaultChannel).toEqual({ channelId: "C00CHAN", channelName: "general" });
    expect(status.routing.events.review_requested).toEqual({ channelId: "C02CHAN", channelName: "reviews" });
    expect(status.routing.events.mention).toBeNull();
  });

  it("posts one message with a link for a status change, a review request and a mention, each to its channel", async () => {
    const before = slack.state.posted.length;
    expect((await owner.client.patch(`/api/projects/${projectId}/status`, { status: "IN_PROGRESS" })).status).toBe(200);
    const review = await owner.client.post(`/api/projects/${projectId}/stakeholder-views`, {
      name: "Launch sign-off",
      requestReview: true,
      stakeholderName: "Dana Director",
    });
    expect(review.status, review.text).toBe(201);
    const comment = await owner.client.post(`/api/projects/${projectId}/comments`, { content: `@${member.email} please check the scope` });
    expect(comment.status, comment.text).toBe(201);
    await runJobs();
    const posted = postedSince(before);
    expect(posted).toHaveLength(3);
    const link = `http://localhost:3000/projects/${projectId}`;
    const status = posted.find((p) => p.text.includes("moved to"))!;
    expect(status).toMatchObject({ channel: "C00CHAN" });
    expect(status.text).toContain("Project Heron: moved to In progress (by Olga Owner)");
    expect(status.text).toContain(link);
    expect(JSON.stringify(status.blocks)).toContain(`<${link}|Open the project>`);
    const req = posted.find((p) => p.text.includes("to review"))!;
    expect(req.channel).toBe("C02CHAN");
    expect(req.text).toContain("Olga Owner asked Dana Director to review “Launch sign-off”");
    const mention = posted.find((p) => p.text.includes("mentioned"))!;
    expect(mention.channel).toBe("C00CHAN");
    expect(mention.text).toContain("Olga Owner mentioned Mia Member in a comment");
    expect(mention.text).toContain(link);
    // Dispatching again posts nothing twice.
    await db.updateTable("events").set({ processedAt: null }).where("orgId", "=", owner.organization.id).execute();
    await runJobs();
    expect(postedSince(before)).toHaveLength(3);
    expect(posted.every((p) => slack.state.tokens.has(p.token))).toBe(true);
  });

  it("a project's own channel wins, chosen from its settings page (JavaScript off)", async () => {
    const page = await owner.client.get(`/projects/${projectId}/settings`);
    expect(parseHtml(page.text).querySelector("label[for=field-channelId]")?.textContent).toBe("Slack channel");
    const saved = await form(owner.client, `/projects/${projectId}/settings`, { intent: "slackChannel", channelId: "C01CHAN" });
    expect(pageText(saved)).toContain("Slack channel saved.");
    const before = slack.state.posted.length;
    await owner.client.patch(`/api/projects/${projectId}/status`, { status: "DRAFT" });
    await runJobs();
    expect(postedSince(before).map((p) => p.channel)).toEqual(["C01CHAN"]);
  });

  it("waits out Slack's Retry-After and then delivers once", async () => {
    slack.state.rateLimit = { times: 1, retryAfter: 7 };
    const before = slack.state.posted.length;
    await owner.client.patch(`/api/projects/${projectId}/status`, { status: "IN_PROGRESS" });
    await runJobs();
    expect(postedSince(before)).toHaveLength(0);
    await runJobs(3);
    expect(postedSince(before)).toHaveLength(0);
    await runJobs(8);
    expect(postedSince(before)).toHaveLength(1);
    const delivery = await db
      .selectFrom("slackDeliveries")
      .selectAll()
      .where("orgId", "=", owner.organization.id)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("sends a test message from the page, and shows a missing channel in plain words", async () => {
    const before = slack.state.posted.length;
    const sent = await form(owner.client, "/settings/slack", { intent: "test" });
    expect(pageText(sent)).toContain("Test message sent to #general.");
    expect(postedSince(before)).toHaveLength(1);
    slack.state.notIn.add("C00CHAN");
    const failed = await owner.client.post("/api/integrations/slack/test", {});
    expectError(failed, 502, "PROVIDER_ERROR");
    expect(failed.body.error).toContain("The app is not a member of #general");
    expect(pageText(await owner.client.get("/settings/slack"))).toContain("The app is not a member of #general");
    slack.state.notIn.clear();
  });

  it("invalid_auth marks the connection as needing reconnection, and the page says so", async () => {
    slack.state.failNext = "invalid_auth";
    const before = slack.state.posted.length;
    await owner.client.patch(`/api/projects/${projectId}/status`, { status: "DRAFT" });
    await runJobs();
    expect(postedSince(before)).toHaveLength(0);
    expect((await owner.client.get("/api/integrations/slack")).body).toMatchObject({ needsReconnect: true });
    const text = pageText(await owner.client.get("/settings/slack"));
    expect(text).toContain("Needs reconnecting");
    expect(text).toContain("Slack no longer accepts this connection");
    expect(text).toContain("Reconnect Slack");
    // Nothing more is queued while it is broken.
    await owner.client.patch(`/api/projects/${projectId}/status`, { status: "IN_PROGRESS" });
    await runJobs();
    expect(postedSince(before)).toHaveLength(0);
    await connectSlack(owner.client);
    expect((await owner.client.get("/api/integrations/slack")).body).toMatchObject({ needsReconnect: false, lastError: null });
  });
});

describe("who may see and change it", () => {
  it("a member reads the status but cannot change anything (403)", async () => {
    const status = await member.client.get("/api/integrations/slack");
    expect(status.status).toBe(200);
    expect(status.body.canManage).toBe(false);
    expectError(await member.client.call("PUT", "/api/integrations/slack", { json: { defaultChannelId: "C03CHAN" } }), 403, "FORBIDDEN");
    expectError(await member.client.post("/api/integrations/slack/connect"), 403, "FORBIDDEN");
    expectError(await member.client.post("/api/integrations/slack/disconnect"), 403, "FORBIDDEN");
    expectError(await member.client.post("/api/integrations/slack/test"), 403, "FORBIDDEN");
    const page = await member.client.get("/settings/slack");
    expect(page.status).toBe(200);
    expect(parseHtml(page.text).querySelector("#field-defaultChannelId")).toBeNull();
    expect(pageText(page)).toContain("Default channel: #general");
    const posted = await form(member.client, "/settings/slack", { intent: "routing", defaultChannelId: "C03CHAN" });
    expect(posted.status).toBe(403);
    const again = (await owner.client.get("/api/integrations/slack")).body;
    expect(again.routing.defaultChannel.channelId).toBe("C00CHAN");
  });

  it("another organization neither sees nor uses this connection", async () => {
    const stranger = await signedUpClient({ name: "Sven Stranger" });
    const status = (await stranger.client.get("/api/integrations/slack")).body;
    expect(status).toMatchObject({ connected: false, teamName: null, routing: { defaultChannel: null, projects: [] } });
    expectError(await stranger.client.post("/api/integrations/slack/test", {}), 409, "CONFLICT");
    // Their project cannot be routed through the first organization, nor the first one's through theirs.
    const bad = await owner.client.call("PUT", "/api/integrations/slack", {
      json: { projects: [{ projectId: (await stranger.client.post("/api/projects", { name: "Secret" })).body.id, channelId: "C01CHAN" }] },
    });
    expectError(bad, 400, "VALIDATION_ERROR");
    const before = slack.state.posted.length;
    const theirs = (await stranger.client.post("/api/projects", { name: "Other" })).body.id;
    await stranger.client.patch(`/api/projects/${theirs}/status`, { status: "IN_PROGRESS" });
    await runJobs();
    expect(postedSince(before)).toHaveLength(0);
  });

  it("disconnect revokes the token at Slack and deletes it", async () => {
    const row = await db.selectFrom("slackConnections").select("accessToken").where("orgId", "=", owner.organization.id).executeTakeFirstOrThrow();
    const res = await owner.client.post("/api/integrations/slack/disconnect");
    expect(res.body).toEqual({ success: true, wasConnected: true });
    expect(slack.state.revoked.has(decrypt(row.accessToken)!)).toBe(true);
    expect(await db.selectFrom("slackConnections").select("orgId").where("orgId", "=", owner.organization.id).executeTakeFirst()).toBeUndefined();
  });

  it("not set up by the operator: members get 404, admins an explanation naming the variables", async () => {
    delete process.env.SLACK_CLIENT_ID;
    delete process.env.SLACK_CLIENT_SECRET;
    resetConfigForTests();
    try {
      expect((await member.client.get("/settings/slack")).status).toBe(404);
      expectError(await member.client.get("/api/integrations/slack"), 404, "NOT_FOUND");
      const page = await owner.client.get("/settings/slack");
      expect(page.status).toBe(200);
      expect(pageText(page)).toContain("Your server administrator has not set up Slack yet");
      const details = parseHtml(page.text).querySelector("[data-testid=slack-setup] details")?.textContent ?? "";
      expect(details).toContain("SLACK_CLIENT_ID");
      expect(details).toContain("SLACK_CLIENT_SECRET");
      expectError(await owner.client.post("/api/integrations/slack/connect"), 409, "CONFLICT");
    } finally {
      Object.assign(process.env, ENV);
      resetConfigForTests();
    }
  });
});
