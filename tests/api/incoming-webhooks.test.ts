import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { sha256 } from "~/utils/ids.server";
import { ORIGIN, TestClient, signedUpClient } from "../support/client";
import { expectError, joinOrg } from "../support/org";

const ADMIN = "/api/admin/incoming-webhooks";
const bare = () => new TestClient("10.77.0.1");
const hookPath = (url: string) => new URL(url).pathname;

async function createHook(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post(ADMIN, body);
  expect(res.status, res.text).toBe(201);
  return res.body.incomingWebhook as { id: string; token: string; url: string; tokenPrefix: string; isActive: boolean };
}

/** A server-to-server call: no cookies, no Origin. */
const send = (path: string, body: string, contentType = "application/json") =>
  bare().call("POST", path, { body, headers: { "Content-Type": contentType, Origin: "" }, cookies: false });

describe("admin endpoints", () => {
  it("creates an endpoint with a one-time token and URL, stores only its hash, lists without the token", async () => {
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "CRM", action: "create_project" });
    expect(hook.token).toMatch(/^inc_[A-Za-z0-9_-]{32}$/);
    expect(hook.url).toBe(`${ORIGIN}/api/webhooks/incoming/${hook.token}`);
    expect(hook.isActive).toBe(true);
    const row = await db.selectFrom("incomingWebhooks").selectAll().where("id", "=", hook.id).executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(sha256(hook.token));
    expect(JSON.stringify(row)).not.toContain(hook.token);
    const list = await client.get(ADMIN);
    expect(list.status).toBe(200);
    expect(list.body.incomingWebhooks).toHaveLength(1);
    expect(list.body.incomingWebhooks[0]).not.toHaveProperty("token");
    expect(list.body.incomingWebhooks[0].tokenPrefix).toBe(hook.token.slice(0, 10));
  });

  it("validates action and the add_comment project", async () => {
    const { client } = await signedUpClient();
    expectError(await client.post(ADMIN, { name: "x", action: "explode" }), 400, "VALIDATION_ERROR");
    const missing = await client.post(ADMIN, { name: "x", action: "add_comment" });
    expectError(missing, 400, "VALIDATION_ERROR");
    expect(missing.body.details[0].path).toBe("config.projectId");
    const other = await signedUpClient();
    const foreign = await other.client.post("/api/projects", { name: "Theirs" });
    expectError(await client.post(ADMIN, { name: "x", action: "add_comment", config: { projectId: foreign.body.id } }), 400, "VALIDATION_ERROR");
  });

  it("refuses members (403) and hides other organizations' endpoints (404)", async () => {
    const owner = await signedUpClient();
    const member = await joinOrg(owner.organization.id, "member", "Mem");
    expectError(await member.client.get(ADMIN), 403, "FORBIDDEN");
    expectError(await member.client.post(ADMIN, { name: "x", action: "create_project" }), 403, "FORBIDDEN");
    const hook = await createHook(owner.client, { name: "CRM", action: "create_project" });
    const stranger = await signedUpClient();
    expectError(await stranger.client.patch(`${ADMIN}/${hook.id}`, { isActive: false }), 404, "NOT_FOUND");
    expectError(await stranger.client.delete(`${ADMIN}/${hook.id}`), 404, "NOT_FOUND");
    expectError(await stranger.client.get(`${ADMIN}/${hook.id}/events`), 404, "NOT_FOUND");
  });

  it("disables, rotates and deletes", async () => {
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "CRM", action: "create_project" });
    const off = await client.patch(`${ADMIN}/${hook.id}`, { isActive: false, name: "CRM old" });
    expect(off.status, off.text).toBe(200);
    expect(off.body.incomingWebhook).toMatchObject({ isActive: false, name: "CRM old" });
    expectError(await send(hookPath(hook.url), JSON.stringify({ name: "P" })), 404, "NOT_FOUND");
    await client.patch(`${ADMIN}/${hook.id}`, { isActive: true });
    const rotated = await client.patch(`${ADMIN}/${hook.id}`, { rotateToken: true });
    expect(rotated.body.incomingWebhook.token).toMatch(/^inc_/);
    expect(rotated.body.incomingWebhook.token).not.toBe(hook.token);
    expectError(await send(hookPath(hook.url), JSON.stringify({ name: "P" })), 404, "NOT_FOUND");
    expect((await send(hookPath(rotated.body.incomingWebhook.url), JSON.stringify({ name: "P" }))).status).toBe(200);
    const del = await client.delete(`${ADMIN}/${hook.id}`);
    expect(del.body).toEqual({ success: true });
    expectError(await send(hookPath(rotated.body.incomingWebhook.url), "{}"), 404, "NOT_FOUND");
  });
});

describe("POST /api/webhooks/incoming/{token}", () => {
  it("create_project from JSON runs as the creator and is logged as processed", async () => {
    const { client, user } = await signedUpClient();
    const hook = await createHook(client, { name: "CRM", action: "create_project" });
    const res = await send(hookPath(hook.url), JSON.stringify({ title: "From CRM", text: "Deal won" }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ received: true, status: "processed" });
    const project = await db.selectFrom("projects").selectAll().where("name", "=", "From CRM").executeTakeFirstOrThrow();
    expect(project.createdById).toBe(user.id);
    expect(project.description).toBe("Deal won");
    const events = await client.get(`${ADMIN}/${hook.id}/events`);
    expect(events.body.events[0]).toMatchObject({ id: res.body.eventId, status: "processed", contentType: "application/json" });
    expect(events.body.events[0].result.projectId).toBe(project.id);
  });

  it("accepts form-urlencoded and stores a failed event when the payload lacks what the action needs", async () => {
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "Form", action: "create_project" });
    const ok = await send(hookPath(hook.url), new URLSearchParams({ name: "Form project" }).toString(), "application/x-www-form-urlencoded");
    expect(ok.body.status, ok.text).toBe("processed");
    const bad = await send(hookPath(hook.url), JSON.stringify({ nothing: true }));
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ received: true, status: "failed" });
    expect(bad.body.error).toMatch(/name/);
    const invalid = await send(hookPath(hook.url), "{not json");
    expectError(invalid, 400, "INVALID_JSON");
    const events = (await client.get(`${ADMIN}/${hook.id}/events`)).body.events;
    expect(events.map((e: { status: string }) => e.status)).toEqual(["failed", "failed", "processed"]);
    expect(events[0].payload).toBe("{not json");
  });

  it("add_comment comments on the configured project", async () => {
    const { client } = await signedUpClient();
    const project = await client.post("/api/projects", { name: "Target" });
    const hook = await createHook(client, { name: "CI", action: "add_comment", config: { projectId: project.body.id } });
    const res = await send(hookPath(hook.url), JSON.stringify({ message: "Build green" }));
    expect(res.body.status, res.text).toBe("processed");
    const comments = await client.get(`/api/projects/${project.body.id}/comments`);
    expect(JSON.stringify(comments.body)).toContain("Build green");
  });

  it("notify_members notifies every member of the organization", async () => {
    const owner = await signedUpClient();
    const member = await joinOrg(owner.organization.id, "member", "Mem");
    const hook = await createHook(owner.client, { name: "Alerts", action: "notify_members" });
    const res = await send(hookPath(hook.url), JSON.stringify({ title: "Deploy done", text: "v2 is live" }));
    expect(res.body.status, res.text).toBe("processed");
    const rows = await db.selectFrom("notifications").selectAll().where("type", "=", "incoming").where("orgId", "=", owner.organization.id).execute();
    expect(rows.map((r) => r.userId).sort()).toEqual([owner.user.id, member.user.id].sort());
    expect(rows[0]).toMatchObject({ title: "Deploy done", body: "v2 is live" });
  });

  it("answers url_verification with the challenge and stores it as ignored", async () => {
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "Chat", action: "notify_members" });
    const res = await send(hookPath(hook.url), JSON.stringify({ type: "url_verification", challenge: "abc123" }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ challenge: "abc123" });
    const events = (await client.get(`${ADMIN}/${hook.id}/events`)).body.events;
    expect(events[0].status).toBe("ignored");
  });

  it("404 for an unknown token; 413 over 1 MB while streaming, recorded as failed", async () => {
    expectError(await send("/api/webhooks/incoming/inc_nope", "{}"), 404, "NOT_FOUND");
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "Big", action: "create_project" });
    // No Content-Length header: the limit is enforced while the body is read.
    const res = await send(hookPath(hook.url), JSON.stringify({ name: "x".repeat(1_100_000) }));
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    const events = (await client.get(`${ADMIN}/${hook.id}/events`)).body.events;
    expect(events[0]).toMatchObject({ status: "failed", payload: "" });
  });

  it("rate-limits each token at 120 requests per minute", async () => {
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "Chat", action: "notify_members" });
    let last;
    for (let i = 0; i < 121; i++) last = await bare().get(`${hookPath(hook.url)}?challenge=c${i}`);
    expectError(last!, 429, "RATE_LIMITED");
    expect(last!.headers.get("Retry-After")).toBeTruthy();
  });
});

describe("GET /api/webhooks/incoming/{token}", () => {
  it("echoes the challenge as text/plain; 404 for unknown tokens; 400 without a challenge", async () => {
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "Chat", action: "notify_members" });
    const res = await bare().get(`${hookPath(hook.url)}?challenge=xyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(res.text).toBe("xyz");
    expectError(await bare().get("/api/webhooks/incoming/inc_unknown?challenge=xyz"), 404, "NOT_FOUND");
    expectError(await bare().get(hookPath(hook.url)), 400, "VALIDATION_ERROR");
  });
});

describe("settings page /settings/incoming-webhooks (no JavaScript)", () => {
  const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
  const postForm = (client: TestClient, fields: Record<string, string>) =>
    client.call("POST", "/settings/incoming-webhooks", { body: new URLSearchParams(fields), headers: FORM });

  it("shows an empty state, creates an endpoint and shows its URL once, then lists it", async () => {
    const { client } = await signedUpClient();
    const empty = await client.get("/settings/incoming-webhooks");
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("No incoming webhooks yet");
    expect(empty.text).toContain("Incoming webhooks</a>");
    const created = await postForm(client, { intent: "create", name: "Page hook", action: "notify_members", projectId: "" });
    expect(created.status, created.text.slice(0, 300)).toBe(200);
    const url = created.text.match(/data-testid="incoming-url">([^<]+)</)?.[1];
    expect(url).toMatch(/\/api\/webhooks\/incoming\/inc_/);
    const sent = await send(hookPath(url!), JSON.stringify({ title: "Hi" }));
    expect(sent.body.status).toBe("processed");
    const page = await client.get("/settings/incoming-webhooks");
    expect(page.text).toContain("Page hook");
    expect(page.text).not.toContain(url!);
    const hook = (await client.get(ADMIN)).body.incomingWebhooks[0];
    const events = await client.get(`/settings/incoming-webhooks?events=${hook.id}`);
    expect(events.text).toContain("Recent events of Page hook");
    expect(events.text).toContain("processed");
  });

  it("shows field errors for add_comment without a project, and disables/deletes", async () => {
    const { client } = await signedUpClient();
    const bad = await postForm(client, { intent: "create", name: "C", action: "add_comment", projectId: "" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Choose the project to comment on");
    const hook = await createHook(client, { name: "Toggle me", action: "create_project" });
    const off = await postForm(client, { intent: "toggle", id: hook.id, isActive: "false" });
    expect(off.text).toContain("Toggle me is now disabled");
    expect((await client.get(ADMIN)).body.incomingWebhooks[0].isActive).toBe(false);
    await postForm(client, { intent: "delete", id: hook.id, name: "Toggle me" });
    expect((await client.get(ADMIN)).body.incomingWebhooks).toEqual([]);
  });

  it("tells members that admins manage it", async () => {
    const owner = await signedUpClient();
    const member = await joinOrg(owner.organization.id, "member", "Mem");
    const page = await member.client.get("/settings/incoming-webhooks");
    expect(page.text).toContain("managed by admins");
    expect(page.text).not.toContain('href="/settings/incoming-webhooks"');
  });
});

describe("cross-site senders", () => {
  it("accepts a POST from another site's page (foreign Origin): the token is the only authority", async () => {
    const { client } = await signedUpClient();
    const hook = await createHook(client, { name: "Chat tool", action: "create_project" });
    const res = await bare().call("POST", hookPath(hook.url), {
      body: JSON.stringify({ name: "From a browser elsewhere" }),
      headers: { "Content-Type": "application/json", Origin: "https://chat.example.net" },
      cookies: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("processed");
    // Token-less cross-site writes elsewhere in the API are still refused.
    const foreign = await client.call("POST", "/api/projects", { json: { name: "x" }, headers: { Origin: "https://chat.example.net" } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("CSRF_FAILED");
  });
});
