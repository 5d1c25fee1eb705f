import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiRouter, isRoutedPath } from "~/http/api/api-router.server";
import { clientIp, sendResponse, toRequest } from "~/http/server/node-adapter.server";
import { jsonResponse } from "~/http/api/respond.server";
import { remixOnly, sourceBuild } from "../support/build";
import { signedUpClient } from "../support/client";

/**
 * The /api route table server.ts answers from: it must pick the same route
 * module Remix would for every API path, and the node adapter must hand the
 * route the same Request express would.
 */

const build = sourceBuild();
const router = createApiRouter(build);

function fullPath(id: string) {
  const parts: string[] = [];
  for (let r = build.routes[id]; r; r = r.parentId ? build.routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
  return parts.join("/");
}

describe("the API route table", () => {
  const apiRoutes = Object.keys(build.routes).filter((id) => fullPath(id).startsWith("api/"));

  it("matches every API route module to its own path, with its params", () => {
    expect(apiRoutes.length).toBeGreaterThan(70);
    for (const id of apiRoutes) {
      const path = `/${fullPath(id)}`.replace(/:(\w+)/g, "value-of-$1").replace(/\*$/, "deep/rest");
      const module = build.routes[id]!.module as { loader?: unknown; action?: unknown };
      const method = module.loader ? "GET" : "POST";
      const found = router.match(path, method);
      expect(found?.entry.id, path).toBe(id);
      for (const m of path.matchAll(/value-of-(\w+)/g)) expect(found!.params[m[1]!]).toBe(`value-of-${m[1]}`);
    }
  });

  it("prefers static segments to params, params to the splat, like React Router", () => {
    expect(router.match("/api/projects/quick-start", "POST")!.entry.id).toBe("routes/api.projects.quick-start");
    expect(router.match("/api/projects/abc", "GET")!.entry.id).toBe("routes/api.projects.$projectId");
    expect(router.match("/api/projects/abc/prd/versions", "GET")!.entry.id).toBe("routes/api.projects.$projectId.prd.versions");
    const unknown = router.match("/api/nothing/here", "GET")!;
    expect(unknown.entry.id).toBe("routes/api.$");
    expect(unknown.params["*"]).toBe("nothing/here");
  });

  it("ignores case of static segments and trailing slashes, decodes params, and leaves HEAD and OPTIONS to Remix", () => {
    expect(router.match("/API/Projects/", "GET")!.entry.id).toBe("routes/api.projects");
    expect(router.match("/api/projects/a%20b/prd", "GET")!.params.projectId).toBe("a b");
    expect(router.match("/api/projects", "HEAD")).toBeNull();
    expect(router.match("/api/projects", "OPTIONS")).toBeNull();
    expect(router.match("/projects", "GET")).toBeNull();
    // The agents' endpoint is served from the table too (no page, no Remix route matching); nothing else outside /api is.
    expect(router.match("/mcp", "POST")?.entry.pattern).toBe("/mcp");
    expect(router.match("/mcp/", "POST")?.entry.pattern).toBe("/mcp");
    expect(router.match("/mcpx", "POST")).toBeNull();
    expect(isRoutedPath("/mcp")).toBe(true);
    expect(isRoutedPath("/mcp/tools")).toBe(false);
    expect(isRoutedPath("/settings/mcp")).toBe(false);
  });

  it("answers as Remix does for the same requests", async () => {
    const account = await signedUpClient({ name: "Router Check" });
    const cookie = [...account.client.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const remix = remixOnly();
    const requests = () => [
      new Request("http://localhost:3000/api/auth/me", { headers: { cookie } }),
      new Request("http://localhost:3000/api/projects?limit=5", { headers: { cookie } }),
      new Request("http://localhost:3000/api/projects/missing", { headers: { cookie } }),
      new Request("http://localhost:3000/api/nowhere", { headers: { cookie } }),
      new Request("http://localhost:3000/api/projects", { method: "DELETE", headers: { cookie, Origin: "http://localhost:3000" } }),
    ];
    const viaRouter = requests();
    const viaRemix = requests();
    for (let i = 0; i < viaRouter.length; i++) {
      const a = (await router.handle(viaRouter[i]!, { ip: "10.0.0.9" }))!;
      const b = await remix(viaRemix[i]!, { ip: "10.0.0.9" });
      expect(a.status, viaRouter[i]!.url).toBe(b.status);
      expect(a.headers.get("Content-Type")).toBe(b.headers.get("Content-Type"));
      expect(a.headers.get("API-Version")).toBe(b.headers.get("API-Version"));
      expect(await a.text()).toBe(await b.text());
    }
  });
});

describe("the node adapter", () => {
  let server: http.Server;
  let base: string;
  const seen: { url: string; ip: string | null; body: string; host: string | null }[] = [];

  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const trust = req.headers["x-test-trust"] === "yes";
      const request = toRequest(req, res, trust);
      seen.push({ url: request.url, ip: clientIp(req, trust), body: request.body ? await request.text() : "", host: request.headers.get("host") });
      const headers = new Headers({ "Content-Type": req.url?.includes("sse") ? "text/event-stream" : "application/json" });
      headers.append("Set-Cookie", "a=1; Path=/");
      headers.append("Set-Cookie", "b=2; Path=/");
      if (req.url?.includes("lazy")) return sendResponse(res, jsonResponse({ title: "Ünïcode ✓ PRD" }, 202, headers));
      if (req.url?.includes("download")) {
        const body = JSON.stringify({ export: true });
        headers.set("Content-Length", String(Buffer.byteLength(body)));
        headers.set("Content-Disposition", 'attachment; filename="x.json"');
        return sendResponse(res, new Response(body, { headers }));
      }
      if (req.url?.includes("file")) {
        return sendResponse(res, new Response("%PDF-1.7 tiny", { headers: { "Content-Type": "application/pdf", "Content-Length": "13" } }));
      }
      if (req.url?.includes("sse")) {
        const stream = new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode("data: 1\n\n"));
            c.enqueue(new TextEncoder().encode("data: 2\n\n"));
            c.close();
          },
        });
        return sendResponse(res, new Response(stream, { headers }));
      }
      return sendResponse(res, new Response(JSON.stringify({ ok: true }), { status: 201, headers }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("builds the URL and client address like express, trusting forwarded headers only when told to", async () => {
    const forwarded = { "X-Forwarded-For": "203.0.113.7, 10.0.0.1", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "prd.example.com" };
    await fetch(`${base}/api/x?y=1`, { headers: { ...forwarded, "x-test-trust": "yes" } });
    await fetch(`${base}/api/x?y=1`, { headers: forwarded });
    // As @remix-run/express does: the forwarded host name, with the port of the Host header when the forwarded one has none.
    expect(seen[0]).toMatchObject({ url: `https://prd.example.com:${new URL(base).port}/api/x?y=1`, ip: "203.0.113.7" });
    expect(seen[1]!.url).toBe(`${base}/api/x?y=1`);
    expect(seen[1]!.ip).toBe("127.0.0.1");
  });

  it("passes the body, sends every Set-Cookie, JSON with its length, and streams event streams", async () => {
    const res = await fetch(`${base}/api/post`, { method: "POST", body: '{"a":1}', headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-length")).toBe(String('{"ok":true}'.length));
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(seen.at(-1)!.body).toBe('{"a":1}');
    const sse = await fetch(`${base}/api/sse`);
    expect(sse.headers.get("content-type")).toBe("text/event-stream");
    expect(await sse.text()).toBe("data: 1\n\ndata: 2\n\n");
  });

  it("writes a jsonResponse from its text: byte length, status, every header and cookie", async () => {
    const res = await fetch(`${base}/api/lazy`);
    expect(res.status).toBe(202);
    const body = JSON.stringify({ title: "Ünïcode ✓ PRD" });
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get("api-version")).toBe("1");
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await res.text()).toBe(body);
  });

  it("hands GET routes a stand-in with the Request's url, method and headers, and a real Request for anything else", async () => {
    const server = http.createServer(async (req, res) => {
      const request = toRequest(req, res, false);
      const clone = request.clone();
      const report = {
        method: request.method,
        url: request.url,
        accept: request.headers.get("accept"),
        twice: request.headers.get("x-twice"),
        body: request.body,
        text: await request.text(),
        signal: request.signal instanceof AbortSignal && !request.signal.aborted,
        clone: clone instanceof Request && clone.url === request.url && clone.headers.get("accept") === "application/json",
        tag: Object.prototype.toString.call(request),
      };
      res.end(JSON.stringify(report));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/projects?limit=2`;
    const headers = new Headers({ Accept: "application/json" });
    headers.append("X-Twice", "a");
    headers.append("X-Twice", "b");
    const report = await (await fetch(url, { headers })).json();
    await new Promise<void>((r) => server.close(() => r()));
    expect(report).toEqual({
      method: "GET",
      url,
      accept: "application/json",
      twice: "a, b",
      body: null,
      text: "",
      signal: true,
      clone: true,
      tag: "[object Request]",
    });
  });

  it("sends one Content-Length: computed for JSON, the declared one for other bodies", async () => {
    const raw = async (path: string) =>
      new Promise<string[]>((resolve, reject) => {
        http
          .get(`${base}${path}`, (res) => {
            res.resume();
            res.on("end", () =>
              resolve(res.rawHeaders.filter((_, i) => i % 2 === 0 && res.rawHeaders[i]!.toLowerCase() === "content-length").map((_, j, all) => all[j]!)),
            );
          })
          .on("error", reject);
      });
    expect(await raw("/api/download")).toHaveLength(1);
    expect(await raw("/api/file")).toHaveLength(1);
    const file = await fetch(`${base}/api/file`);
    expect(file.headers.get("content-length")).toBe("13");
    expect(await file.text()).toBe("%PDF-1.7 tiny");
  });
});
