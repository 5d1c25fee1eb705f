import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { setFlagResolver } from "~/domain/flags/flags.server";
import { flagEnabled } from "~/domain/flags/store.server";
import type { Contract } from "~/http/api/contract";
import * as collaboration from "~/http/api/contracts/collaboration";
import { AI_CONCURRENT_PER_USER } from "~/http/ai-rate.server";
import { useAiMocks } from "../mocks/server";
import { openStream, setEnv } from "../support/ai";
import { remixHandler } from "../support/build";
import { type ApiResult, ORIGIN, signedUpClient, type TestClient } from "../support/client";
import { type Account, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

/**
 * Issue 33, item 6: one policy for every door (app/http/policy/guard.server.ts).
 * Each guard is attacked with the same forbidden operation through the three
 * doors — /api, /mcp, and a page's form posted without JavaScript (a
 * urlencoded POST to the page route with the session cookie and a
 * same-origin Origin) — and each door refuses it with the same reason.
 */

useAiMocks();

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM });

/** One JSON-RPC tools/call POST to /mcp with an API key; the tool's text and whether it is an error. */
async function mcpTool(client: TestClient, key: string, name: string, args: Record<string, unknown>) {
  const res = await client.call("POST", "/mcp", {
    key,
    json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    headers: { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18" },
  });
  expect(res.status, res.text).toBe(200);
  const result = res.body.result as { isError?: boolean; content: { text: string }[] };
  return { isError: Boolean(result.isError), text: result.content[0]!.text };
}

/** The reason of a refusal, with the seconds of a Retry-After wording ("try again in 57 s") left out. */
const same = (message: string) => message.replace(/\d+ s\b/g, "N s");

/** Asserts the three doors' answers are the refusal `code` with one and the same message. */
function expectSameRefusal(doors: { api: ApiResult; mcp: { isError: boolean; text: string }; ui: ApiResult }, status: number, code: string) {
  const { api, mcp, ui } = doors;
  expect(api.status, api.text).toBe(status);
  expect(api.body.code).toBe(code);
  const message = api.body.error as string;
  expect(mcp.isError, mcp.text).toBe(true);
  expect(same(mcp.text)).toBe(same(`${code}: ${message}`));
  expect(ui.status, pageText(ui).slice(0, 300)).toBe(status);
  expect(same(pageText(ui))).toContain(same(message));
  return message;
}

async function mint(account: Account, body: Record<string, unknown>) {
  const res = await account.client.post("/api/admin/rest-api-keys", body);
  expect(res.status, res.text).toBe(201);
  return res.body.apiKey.key as string;
}

const commentCount = async (projectId: string) =>
  Number(
    (
      await db
        .selectFrom("comments")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("projectId", "=", projectId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** An /api call straight to the handler, for operations whose contract a test changes (the OpenAPI check would hold the old one). */
async function rawApi(account: Account, path: string, json: unknown): Promise<ApiResult> {
  const cookie = [...account.client.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const request = new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: ORIGIN, Host: new URL(ORIGIN).host, "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });
  const response = await remixHandler()(request, { ip: account.client.ip });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

let owner: Account;
let writeKey: string;
let readKey: string;
let projectId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Pia Policy" });
  await setPlan(owner.organization.id, "pro");
  writeKey = await mint(owner, { name: "agent", scopes: ["write"] });
  readKey = await mint(owner, { name: "reader", scopes: ["read"] });
  projectId = (await owner.client.post("/api/projects", { name: "Doors" })).body.id;
});

describe("the role guard", () => {
  it("refuses a viewer's tracker preview with the same reason at every door", async () => {
    const viewer = await joinOrg(owner.organization.id, "admin", "Vic Viewer");
    // Its key is minted while an admin; the key acts with its creator's current role.
    const key = await mint(viewer, { name: "viewer's", scopes: ["write"] });
    await db.updateTable("memberships").set({ role: "viewer" }).where("userId", "=", viewer.user.id).execute();
    // A viewer reads the projects shared with them.
    expect((await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" })).status).toBe(201);
    const input = { connectionId: "conn_x", target: "acme/app", markdown: "### Sign in\nAs a user, I want to sign in." };
    const api = await viewer.client.post(`/api/projects/${projectId}/tracker/preview`, input);
    const mcp = await mcpTool(viewer.client, key, "send_stories_to_tracker", { projectId, ...input, preview: true });
    const ui = await postForm(viewer.client, `/projects/${projectId}/tracker`, { intent: "preview", source: "paste", ...input });
    const message = expectSameRefusal({ api, mcp, ui }, 403, "FORBIDDEN");
    expect(message).toBe("Only owners, admins and members can do this; you are a viewer.");
  });
});

describe("the API-key scope guard", () => {
  it("refuses a read-only key's comment at /api and /mcp; the page door takes no key at all", async () => {
    const api = await owner.client.post(`/api/projects/${projectId}/comments`, { content: "From a reader" }, { key: readKey, cookies: false });
    expect(api.status, api.text).toBe(403);
    expect(api.body).toMatchObject({ code: "FORBIDDEN", error: "This API key lacks the write scope" });
    const mcp = await mcpTool(owner.client, readKey, "add_comment", { projectId, content: "From a reader" });
    expect(mcp).toEqual({ isError: true, text: "FORBIDDEN: This API key lacks the write scope" });
    // A page is a session's door: the key without a cookie is sent to sign in, and nothing is written.
    const ui = await owner.client.call("POST", `/projects/${projectId}?index`, {
      key: readKey,
      cookies: false,
      body: new URLSearchParams({ intent: "comment-create", content: "From a reader" }),
      headers: { ...FORM, Origin: ORIGIN },
    });
    expect(ui.status).toBe(302);
    expect(ui.headers.get("Location")).toMatch(/^\/sign-in\?redirectTo=/);
    expect(await commentCount(projectId)).toBe(0);
    // Scopes narrow keys only: the same operation by the key's creator, signed in, passes every door.
    expect((await owner.client.post(`/api/projects/${projectId}/comments`, { content: "Signed in" })).status).toBe(201);
    expect((await mcpTool(owner.client, writeKey, "add_comment", { projectId, content: "Write key" })).isError).toBe(false);
    expect((await postForm(owner.client, `/projects/${projectId}?index`, { intent: "comment-create", content: "From the page" })).status).toBe(200);
    expect(await commentCount(projectId)).toBe(3);
  });
});

/**
 * No operation that MCP exposes needs a plan or a feature flag today, so these
 * two give "add a comment" (POST /api/projects/{id}/comments, add_comment, the
 * comment form) one for the test: a rule added to the contract must hold on
 * every door at once, which only one policy reading the contract can promise.
 */
describe("the plan and feature-flag guards", () => {
  const createComment = collaboration.createComment as Contract;
  afterEach(() => {
    delete createComment.plan;
    delete createComment.flag;
    setFlagResolver(flagEnabled);
  });

  const throughDoors = async (content: string) => ({
    api: await rawApi(owner, `/api/projects/${projectId}/comments`, { content }),
    mcp: await mcpTool(owner.client, writeKey, "add_comment", { projectId, content }),
    ui: await postForm(owner.client, `/projects/${projectId}?index`, { intent: "comment-create", content }),
  });

  it("refuses an operation above the organization's plan with the same reason at every door", async () => {
    const before = await commentCount(projectId);
    createComment.plan = "enterprise";
    const message = expectSameRefusal(await throughDoors("Needs Enterprise"), 403, "PLAN_UPGRADE_REQUIRED");
    expect(message).toBe(`${createComment.summary} needs the Enterprise plan or above`);
    expect(await commentCount(projectId)).toBe(before);
  });

  it("refuses an operation behind a feature flag that is off with the same reason at every door", async () => {
    const before = await commentCount(projectId);
    createComment.flag = "comment_doors";
    setFlagResolver((actor, key) => key !== "comment_doors" && flagEnabled(actor, key));
    const message = expectSameRefusal(await throughDoors("Flag off"), 403, "FEATURE_DISABLED");
    expect(message).toBe("The comment_doors feature is not enabled for your organization");
    expect(await commentCount(projectId)).toBe(before);
  });
});

describe("the plan's limits", () => {
  it("refuses the project beyond the plan's limit with the same reason at every door", async () => {
    const account = await signedUpClient({ name: "Lim Limit" });
    await setPlan(account.organization.id, "pro");
    const key = await mint(account, { name: "agent", scopes: ["write"] });
    // Downgraded to Free (10 projects): the key stays, the limit applies.
    await setPlan(account.organization.id, "free");
    const existing = Number(
      (
        await db
          .selectFrom("projects")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("orgId", "=", account.organization.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    for (let i = existing; i < 10; i++) expect((await account.client.post("/api/projects", { name: `Project ${i}` })).status).toBe(201);
    const api = await account.client.post("/api/projects", { name: "Eleventh" });
    const mcp = await mcpTool(account.client, key, "create_project", { name: "Eleventh" });
    const ui = await postForm(account.client, "/projects/new", { name: "Eleventh" });
    expectSameRefusal({ api, mcp, ui }, 403, "LIMIT_REACHED");
  });
});

describe("the AI guards", () => {
  afterEach(() => setEnv({ OPENAI_API_KEY: undefined }));

  /** A Free account (10 AI requests a minute) with a write key and a project, for the builder's answer at the three doors. */
  async function aiAccount(name: string) {
    const account = await signedUpClient({ name });
    await setPlan(account.organization.id, "pro");
    const key = await mint(account, { name: "agent", scopes: ["write"] });
    await setPlan(account.organization.id, "free");
    const id = (await account.client.post("/api/projects", { name: "Builder" })).body.id as string;
    const answer = "Clinic patients forget their appointments and the slots go unused.";
    const doors = async () => ({
      api: await account.client.post(`/api/projects/${id}/chat`, { message: answer }),
      mcp: await mcpTool(account.client, key, "add_conversation_answer", { projectId: id, answer }),
      ui: await postForm(account.client, `/projects/${id}/builder`, { message: answer }),
    });
    return { account, doors };
  }

  it("refuses the answer beyond the plan's AI rate with the same reason at every door", async () => {
    setEnv({ OPENAI_API_KEY: "sk-platform-doors-aaaaaaaaaaaaaaaa" });
    const { account, doors } = await aiAccount("Ray Rate");
    for (let i = 0; i < 10; i++) {
      const res = await account.client.post("/api/chat", { messages: [{ role: "user", content: `Question ${i}` }] });
      expect(res.status, res.text).toBe(200);
    }
    const message = expectSameRefusal(await doors(), 429, "RATE_LIMITED");
    expect(same(message)).toBe("Too many AI requests; try again in N s");
  });

  it(`refuses a 6th AI request while ${AI_CONCURRENT_PER_USER} are running, at every door, and each door gives its slot back`, async () => {
    // No provider key: the offline drafter answers, uncounted by the rate; every request still takes a slot.
    const { account, doors } = await aiAccount("Cora Concurrent");
    const open = [];
    for (let i = 0; i < AI_CONCURRENT_PER_USER; i++) {
      const stream = await openStream(account, "/api/ai/improve", {
        content: "Checkout takes too long for returning users.",
        improvementType: "improve_writing",
      });
      expect(stream.response.status).toBe(200);
      await stream.readUntil("data:");
      open.push(stream);
    }
    const message = expectSameRefusal(await doors(), 429, "RATE_LIMITED");
    expect(message).toBe(`You already have ${AI_CONCURRENT_PER_USER} AI requests running. Wait for one to finish, or stop one, and try again.`);
    for (const stream of open) await stream.readToEnd();
    // Every door released what it took: more answers in a row than there are slots, through each.
    const { api, mcp, ui } = await doors();
    expect(api.status, api.text).toBe(200);
    expect(mcp.isError, mcp.text).toBe(false);
    expect(ui.status).toBe(302);
    for (let i = 0; i < AI_CONCURRENT_PER_USER; i++) expect((await doors()).ui.status).toBe(302);
  });
});
