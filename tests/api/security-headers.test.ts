import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { setEnv } from "../support/ai";
import { type ApiResult, signedUpClient, TestClient } from "../support/client";
import type { Account } from "../support/org";
import { expectSseStream } from "../support/sse";
import { rawPost } from "./exports-support";
import { parseHtml } from "../support/html";
import { serveApp } from "../support/serve";

/**
 * Security headers (docs/security.md, "HTTP headers"): every page has a
 * Content-Security-Policy whose script-src allows inline scripts only with a
 * per-request nonce, and every inline script Remix emits carries it; every
 * response (pages, data requests, API JSON, errors, SSE, files, /metrics,
 * static files) says nosniff; HSTS is sent exactly when APP_URL is https.
 */

const HSTS = "max-age=31536000; includeSubDomains";
const HTTP_APP_URL = "http://localhost:3000";

let owner: Account;
let projectId: string;
let sharePath: string;

beforeAll(async () => {
  await ensureSystemTemplates();
  owner = await signedUpClient({ name: "Hedda Headers" });
  const created = await owner.client.post("/api/projects", { name: "Header audit", templateId: "sys-standard-prd" });
  expect(created.status, created.text).toBe(201);
  projectId = created.body.id;
  const prd = await owner.client.post(`/api/projects/${projectId}/prd`, { content: "# Header audit\n\n## Problem\nNo policy on pages.\n" });
  expect(prd.status, prd.text).toBeLessThan(300);
  const share = await owner.client.post(`/api/projects/${projectId}/share`, {});
  expect(share.status, share.text).toBeLessThan(300);
  sharePath = new URL(share.body.shareUrl).pathname;
});

afterEach(() => {
  setEnv({ APP_URL: HTTP_APP_URL, BILLING_PROVIDER: undefined, NOTES_CLIENT_ID: undefined, NOTES_CLIENT_SECRET: undefined });
});

/** The policy's directives: name → its source list. */
function directives(policy: string) {
  const map = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources);
  }
  return map;
}

/**
 * Checks a page's headers and HTML: one policy, its script-src allows
 * same-origin files and this nonce (never 'unsafe-inline'), and every
 * <script> of the document carries the nonce. Returns the nonce.
 */
function expectProtectedPage(res: ApiResult, path: string) {
  expect(res.headers.get("Content-Type"), path).toContain("text/html");
  const policy = res.headers.get("Content-Security-Policy");
  expect(policy, `${path}: Content-Security-Policy`).toBeTruthy();
  const scriptSrc = directives(policy!).get("script-src");
  expect(scriptSrc, `${path}: script-src`).toBeDefined();
  expect(scriptSrc, path).not.toContain("'unsafe-inline'");
  expect(scriptSrc, path).not.toContain("'unsafe-eval'");
  const nonces = scriptSrc!.filter((s) => s.startsWith("'nonce-"));
  expect(nonces, path).toHaveLength(1);
  const nonce = nonces[0]!.slice("'nonce-".length, -1);
  expect(nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(
    scriptSrc!.filter((s) => !s.startsWith("'nonce-")),
    path,
  ).toEqual(["'self'"]);

  const scripts = [...parseHtml(res.text).querySelectorAll("script")];
  // Remix's context and module loader, the scroll restoration, the streamed loader data.
  expect(scripts.length, `${path}: scripts`).toBeGreaterThanOrEqual(3);
  for (const script of scripts) expect(script.getAttribute("nonce"), `${path}: ${script.outerHTML.slice(0, 120)}`).toBe(nonce);
  expect(res.text.match(/<script\b/gi)!.length, path).toBe(scripts.length);

  expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
  expect(res.headers.get("X-Frame-Options"), path).toBe("DENY");
  expect(res.headers.get("Cross-Origin-Opener-Policy"), path).toBe("same-origin");
  expect(res.headers.get("Referrer-Policy"), path).toBe("strict-origin-when-cross-origin");
  return nonce;
}

describe("pages: a Content-Security-Policy with a nonce", () => {
  it("every page's policy has a fresh nonce, and each inline <script> of the page carries it", async () => {
    const anonymous = new TestClient("10.9.0.1");
    const visits: [TestClient, string, number][] = [
      [anonymous, "/", 200],
      [anonymous, "/sign-up", 200],
      [anonymous, "/sign-in", 200],
      [anonymous, "/pricing", 200],
      [anonymous, "/marketplace", 200],
      [anonymous, sharePath, 200],
      [anonymous, "/no-such-page", 404],
      [owner.client, "/home", 200],
      [owner.client, "/projects", 200],
      [owner.client, `/projects/${projectId}`, 200],
      [owner.client, `/projects/${projectId}?edit`, 200],
      [owner.client, `/projects/${projectId}/builder`, 200],
      [owner.client, `/projects/${projectId}/ai/diagrams`, 200],
      [owner.client, `/projects/${projectId}/sharing`, 200],
      [owner.client, "/settings", 200],
      [owner.client, "/projects/does-not-exist", 404],
    ];
    const seen = new Set<string>();
    for (const [client, path, status] of visits) {
      const res = await client.get(path);
      expect(res.status, path).toBe(status);
      seen.add(expectProtectedPage(res, path));
    }
    // The same page twice: a new nonce each time.
    seen.add(expectProtectedPage(await anonymous.get("/sign-in"), "/sign-in again"));
    seen.add(expectProtectedPage(await owner.client.get(`/projects/${projectId}`), "project again"));
    expect(seen.size).toBe(visits.length + 2);
  });

  it("the policy: own-origin scripts, connections and forms only, no plugins, no <base>, no framing", async () => {
    const res = await new TestClient("10.9.0.2").get("/sign-up");
    const policy = directives(res.headers.get("Content-Security-Policy")!);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    // APP_URL's origin: a checkout link is built from it, whatever host the page was opened on.
    expect(policy.get("form-action")).toEqual(["'self'", HTTP_APP_URL]);
    // Inline style attributes (server-rendered style={…}) and Mermaid's SVG <style>: no nonce possible.
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:", "https:", "http:"]);
  });

  it("form-action also admits the payment and OAuth consent pages a form post is redirected to, when configured", async () => {
    setEnv({ BILLING_PROVIDER: "stripe", NOTES_CLIENT_ID: "notes-client", NOTES_CLIENT_SECRET: "notes-secret" });
    const res = await new TestClient("10.9.0.3").get("/sign-in");
    const formAction = directives(res.headers.get("Content-Security-Policy")!).get("form-action");
    expect(formAction).toEqual(["'self'", HTTP_APP_URL, "https://checkout.stripe.com", "https://billing.stripe.com", "https://api.notion.com"]);
  });

  it("data requests (client navigation, fetchers) carry nosniff", async () => {
    const res = await owner.client.get(`/projects/${projectId}.data`);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });
});

describe("API responses say nosniff", () => {
  it("JSON, JSON errors, SSE streams and file downloads", async () => {
    const anonymous = new TestClient("10.9.0.4");
    const json = await owner.client.get(`/api/projects/${projectId}`);
    expect(json.status).toBe(200);
    const created = await owner.client.post("/api/projects", { name: "Nosniff" });
    expect(created.status).toBe(201);
    const unauthorized = await anonymous.get("/api/projects");
    expect(unauthorized.status).toBe(401);
    const invalid = await owner.client.post("/api/projects", { name: "" });
    expect(invalid.status).toBe(400);
    const unknown = await owner.client.get("/api/no-such-endpoint");
    expect(unknown.status).toBe(404);
    const health = await anonymous.get("/api/health");
    expect(health.status).toBe(200);
    const sse = await owner.client.post(`/api/projects/${projectId}/conversation/stream`, { message: "Support agents retype order numbers by hand." });
    expectSseStream(sse);
    const file = await rawPost(owner.client, "/api/export/html", { projectId });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment/);

    for (const [what, res] of Object.entries({ json, created, unauthorized, invalid, unknown, health, sse, file })) {
      expect(res.headers.get("X-Content-Type-Options"), what).toBe("nosniff");
      expect(res.headers.get("Referrer-Policy"), what).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("Strict-Transport-Security"), what).toBeNull();
    }
  });
});

describe("Strict-Transport-Security", () => {
  it("is sent on pages, data requests and the API only when APP_URL is https", async () => {
    const anonymous = new TestClient("10.9.0.5");
    const visits: [TestClient, string][] = [
      [anonymous, "/sign-in"],
      [anonymous, "/api/health"],
      [owner.client, `/projects/${projectId}`],
      [owner.client, `/projects/${projectId}.data`],
      [owner.client, `/api/projects/${projectId}`],
    ];
    for (const [client, path] of visits) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Strict-Transport-Security"), path).toBeNull();
    }
    setEnv({ APP_URL: "https://prd.example.com" });
    for (const [client, path] of visits) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Strict-Transport-Security"), path).toBe(HSTS);
    }
  });
});

describe("through server.ts's node handler (a real socket)", () => {
  let app: Awaited<ReturnType<typeof serveApp>>;
  let base: string;
  const TOKEN = "metrics-token-security-headers";

  beforeAll(async () => {
    app = await serveApp({ metricsToken: TOKEN, staticFiles: true });
    base = app.url;
  });
  afterAll(() => app.close());

  it("every response — page, redirect, static file, /metrics, API — has each header once", async () => {
    setEnv({ APP_URL: "https://prd.example.com" });
    const responses = {
      page: await fetch(`${base}/sign-in`),
      redirect: await fetch(`${base}/home`, { redirect: "manual" }),
      staticFile: await fetch(`${base}/favicon.svg`),
      metrics: await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }),
      metricsRefused: await fetch(`${base}/metrics`),
      api: await fetch(`${base}/api/health`),
      apiError: await fetch(`${base}/api/projects`),
    };
    expect(responses.page.status).toBe(200);
    expect(responses.redirect.status).toBeGreaterThanOrEqual(300);
    expect(responses.redirect.status).toBeLessThan(400);
    expect(responses.staticFile.status).toBe(200);
    expect(responses.metrics.status).toBe(200);
    expect(responses.metricsRefused.status).toBe(401);
    expect(responses.api.status).toBe(200);
    expect(responses.apiError.status).toBe(401);
    for (const [what, res] of Object.entries(responses)) {
      await res.arrayBuffer();
      // fetch joins repeated headers with ", ": equality proves each was sent once (a doubled HSTS is ignored).
      expect(res.headers.get("X-Content-Type-Options"), what).toBe("nosniff");
      expect(res.headers.get("Strict-Transport-Security"), what).toBe(HSTS);
      expect(res.headers.get("Referrer-Policy"), what).toBe("strict-origin-when-cross-origin");
    }
    const policy = responses.page.headers.get("Content-Security-Policy")!;
    expect(policy.match(/script-src/g)).toHaveLength(1);
    expect(responses.page.headers.get("X-Frame-Options")).toBe("DENY");
  });
});
