import { describe, expect, it } from "vitest";
import { allContracts } from "~/http/api/contracts/index";
import { TestClient } from "../support/client";
import { assertResponseInContract } from "../support/contract-check";

/**
 * What /api/openapi.json must say beyond each contract's own schemas: the
 * boundary's statuses and headers, honest request schemas, SSE streams, and
 * the response check the test client runs on every call.
 */

let doc: any;
const op = (method: string, path: string) => doc.paths[path][method];
const ops = () =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, o]) => ({ key: `${method.toUpperCase()} ${path}`, op: o })));
const jsonBody = (o: any) => o.requestBody?.content?.["application/json"]?.schema;

describe("the generated OpenAPI document", () => {
  it("is served", async () => {
    const res = await new TestClient().get("/api/openapi.json");
    expect(res.status).toBe(200);
    doc = res.body;
  });

  it("declares on every operation what the boundary itself answers, with API-Version on every response", () => {
    for (const { key, op: o } of ops()) {
      for (const status of ["400", "401", "403", "429", "500", "503"]) expect(o.responses, `${key} ${status}`).toHaveProperty(status);
      expect(o.responses["429"].headers, key).toHaveProperty("Retry-After");
      expect(o.responses["503"].headers, key).toHaveProperty("Retry-After");
      expect(o.responses["503"].description, key).toContain("STORAGE_FULL");
      for (const [status, response] of Object.entries<any>(o.responses)) {
        expect(response.headers?.["API-Version"], `${key} ${status}`).toEqual({ $ref: "#/components/headers/API-Version" });
      }
      expect(o.parameters, key).toContainEqual({ $ref: "#/components/parameters/ApiVersion" });
    }
    expect(doc.components.headers["API-Version"].required).toBe(true);
    expect(op("post", "/api/auth/sign-out").responses["401"].description).toContain("UNAUTHORIZED");
    expect(op("get", "/api/projects/{projectId}").responses["401"].description).toContain("SHARE_PASSWORD_REQUIRED");
    expect(op("get", "/api/projects/{projectId}").security).toContainEqual({ shareToken: [] });
    expect(op("post", "/api/ai/coach").responses["429"].headers).toHaveProperty("X-RateLimit-Remaining");
  });

  it("marks required only the request fields that cannot be left out, and keeps normalised enums", () => {
    expect(jsonBody(op("post", "/api/ai/improve")).required).toEqual(["content", "improvementType"]);
    expect(jsonBody(op("post", "/api/projects/{projectId}/comments")).required).toEqual(["content"]);
    expect(jsonBody(op("post", "/api/memory")).required).not.toContain("summary");
    const schedule = jsonBody(op("post", "/api/scheduled-exports"));
    expect(schedule.properties.format.enum).toEqual(["pdf", "html", "docx", "markdown"]);
    expect(schedule.properties.deliveryMethod.enum).toEqual(["email", "webhook"]);
    expect(schedule.properties.scheduleType.enum).toEqual(expect.arrayContaining(["weekly", "cron", "one_time", "on_status_change"]));
    // A body whose every field may be left out is itself optional (an empty body is read as {}).
    expect(op("post", "/api/feedback/nps").requestBody.required).toBe(false);
    // Generally: a required field fails alone without a value, an optional one passes.
    for (const c of allContracts) {
      const shape = (c.body as any)?.shape as Record<string, { safeParse(v: unknown): { success: boolean } }> | undefined;
      if (!shape || c.requestType === "multipart") continue;
      const required: string[] = jsonBody(op(c.method.toLowerCase(), c.path)).required ?? [];
      for (const [field, schema] of Object.entries(shape)) {
        expect(required.includes(field), `${c.method} ${c.path} ${field}`).toBe(!schema.safeParse(undefined).success);
      }
    }
  });

  it("documents ETag, If-Match, If-None-Match and 304 where the server honours them", () => {
    expect(op("get", "/api/projects/{projectId}").responses["200"].headers).toHaveProperty("ETag");
    expect(op("patch", "/api/projects/{projectId}").parameters).toContainEqual({ $ref: "#/components/parameters/IfMatch" });
    expect(op("patch", "/api/projects/{projectId}/prd").parameters).toContainEqual({ $ref: "#/components/parameters/IfMatch" });
    const file = op("get", "/api/projects/{projectId}/files/{fileId}");
    expect(file.parameters).toContainEqual({ $ref: "#/components/parameters/IfNoneMatch" });
    expect(file.responses["304"].content).toBeUndefined();
    expect(Object.keys(file.responses["200"].content)).toEqual(["*/*"]);
  });

  it("declares the real content types of downloads", () => {
    expect(Object.keys(op("get", "/api/projects/{projectId}/chat-export").responses["200"].content).sort()).toEqual([
      "application/json",
      "application/pdf",
      "text/csv",
    ]);
    expect(Object.keys(op("get", "/api/admin/audit-logs/export").responses["200"].content).sort()).toEqual(["application/json", "text/csv"]);
    expect(Object.keys(op("get", "/api/uploads/images/{imageId}").responses["200"].content).sort()).toEqual(["image/png", "image/webp"]);
  });

  it("declares each SSE stream with the schema of its events", () => {
    const streams = ops().filter(({ op: o }) => Object.values<any>(o.responses).some((r) => r.content?.["text/event-stream"]));
    expect(streams.length).toBeGreaterThanOrEqual(9);
    const live = "GET /api/projects/{projectId}/prd/live";
    for (const { key, op: o } of streams) {
      const ok = Object.values<any>(o.responses).find((r) => r.content?.["text/event-stream"]);
      expect(ok.description, key).toMatch(/data: <json>/);
      // The live PRD's stream declares events of its own; every other stream is an AI stream.
      if (key !== live) expect(ok.content["text/event-stream"].schema, key).toEqual({ $ref: "#/components/schemas/StreamEvent" });
    }
    const events = doc.components.schemas.StreamEvent.oneOf.map((s: any) => s.$ref.split("/").pop());
    expect(events).toEqual(["StreamProgress", "StreamContent", "StreamDone", "StreamError"]);
    const liveEvents = op("get", "/api/projects/{projectId}/prd/live").responses["200"].content["text/event-stream"].schema;
    expect(liveEvents.anyOf.map((s: any) => s.properties.type.const)).toEqual(["sync", "state", "update", "presence", "version", "reset"]);
  });

  it("lets a 409 carry the state it collided with, and declares the dashboard's projects in full", () => {
    expect(op("patch", "/api/projects/{projectId}").responses["409"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Conflict" });
    expect(doc.components.schemas.Conflict.properties).toHaveProperty("current");
    expect(doc.components.schemas.Conflict.properties).toHaveProperty("currentVersionId");
    const recent = op("get", "/api/admin/dashboard").responses["200"].content["application/json"].schema.properties.recentProjects.items;
    expect(Object.keys(recent.properties)).toEqual(expect.arrayContaining(["description", "assignedToId", "createdById", "revision"]));
  });
});

describe("the test client's response check", () => {
  const ok = (text: string, status = 200, type = "application/json") => ({
    status,
    headers: new Headers({ "Content-Type": type, "API-Version": "1" }),
    text,
  });
  const health = JSON.stringify({
    status: "ok",
    checks: {
      database: { status: "ok", latencyMs: 1 },
      jobs: {
        status: "ok",
        queued: 0,
        lagSeconds: 0,
        slow: [],
        queues: Object.fromEntries(
          ["mail", "webhooks", "exports", "trackers", "slack", "other", "events"].map((q) => [
            q,
            { status: "ok", queued: 0, running: 0, lagSeconds: 0, maxLagSeconds: 300 },
          ]),
        ),
      },
      disk: { status: "ok", freeBytes: 1, totalBytes: 2 },
    },
  });

  it("accepts an answer the document declares", async () => {
    await assertResponseInContract("GET", "/api/health", ok(health));
    await assertResponseInContract("GET", "/api/health", ok(JSON.stringify({ error: "x", code: "RATE_LIMITED" }), 429));
  });

  it("refuses an undeclared status, content type, missing header or body, naming the operation", async () => {
    await expect(assertResponseInContract("GET", "/api/health", ok(health, 418))).rejects.toThrow(
      /GET \/api\/health \(getApiHealth\) answered 418 .*status 418 is not declared/s,
    );
    await expect(assertResponseInContract("GET", "/api/health", ok(health, 200, "text/html"))).rejects.toThrow(/Content-Type text\/html is not declared/);
    await expect(
      assertResponseInContract("GET", "/api/health", { ...ok(health), headers: new Headers({ "Content-Type": "application/json" }) }),
    ).rejects.toThrow(/required header API-Version is missing/);
    await expect(assertResponseInContract("GET", "/api/health", ok(JSON.stringify({ status: "fine" })))).rejects.toThrow(
      /must be equal to one of the allowed values/,
    );
    await expect(assertResponseInContract("GET", "/api/health", ok(JSON.stringify({ error: "x", code: "RATE_LIMITED", stack: "..." }), 429))).rejects.toThrow(
      /must NOT have additional properties \(stack\)/,
    );
  });

  it("checks every event of an SSE stream", async () => {
    const stream = (...events: unknown[]) => ok(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), 200, "text/event-stream");
    await assertResponseInContract("POST", "/api/ai/improve", stream({ type: "content", content: "a" }, { type: "done", fullContent: "a" }));
    await expect(assertResponseInContract("POST", "/api/ai/improve", stream({ type: "content", content: 1 }))).rejects.toThrow(/event 0/);
  });

  it("leaves pages and paths without a contract alone", async () => {
    await assertResponseInContract("GET", "/projects", ok("<html>", 200, "text/html"));
    await assertResponseInContract("GET", "/api/no-such-thing", ok("{}", 404));
    await assertResponseInContract("PUT", "/api/health", ok("{}", 405));
  });
});
