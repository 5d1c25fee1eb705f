import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { brandEmailHtml } from "~/domain/branding/email-branding.server";
import { fetchRemoteLogo, forgetRemoteLogos } from "~/domain/branding/remote-logo.server";
import { guardedRequest } from "~/domain/webhooks/outbound.server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { type Account, expectError } from "../support/org";
import { newProjectWithPrd, rawPost } from "./exports-support";

/**
 * A logo given as a URL: stored and returned; refused on save when it names
 * a private or loopback address (the webhook policy); fetched for exports
 * through the webhooks' guarded request from a loopback stand-in (allowed
 * only with ALLOW_PRIVATE_WEBHOOK_TARGETS=true), with size and type limits
 * and no logo when anything fails.
 */

const LOGO_W = 240;
const LOGO_H = 80;
let logoPng: Buffer;
let server: http.Server;
let base: string;
const hits: string[] = [];

let owner: Account;
let projectId: string;

beforeAll(async () => {
  logoPng = await sharp({ create: { width: LOGO_W, height: LOGO_H, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png()
    .toBuffer();
  const huge = Buffer.concat([logoPng, Buffer.alloc(3 * 1024 * 1024)]);
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    hits.push(url.pathname + url.search);
    const send = (status: number, type: string, body: Buffer | string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": type, ...headers });
      res.end(body);
    };
    if (url.pathname === "/logo.png") return send(200, "image/png", logoPng);
    if (url.pathname === "/moved") return send(302, "text/plain", "", { Location: "/logo.png?via=redirect" });
    if (url.pathname === "/page") return send(200, "text/html", "<html>not an image</html>");
    if (url.pathname === "/huge.png") return send(200, "image/png", huge);
    if (url.pathname === "/vector.svg") return send(200, "image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    send(404, "text/plain", "missing");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  owner = await signedUpClient({ name: "Lola Logo" });
  projectId = await newProjectWithPrd(owner, "Logo Project", "## Goals\n\nShow the logo.\n");
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined });
  forgetRemoteLogos();
  hits.length = 0;
});

const allowLoopback = () => setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" });
const setLogo = (logo: unknown) => owner.client.post("/api/organization/branding", { logo });

/** The images of a PDF as pdfimages lists them: width × height. */
function pdfImages(bytes: Uint8Array) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "logo-pdf-"));
  const file = path.join(dir, "doc.pdf");
  fs.writeFileSync(file, bytes);
  try {
    const lines = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2);
    return lines
      .map((l) => l.trim().split(/\s+/))
      .filter((c) => c[2] === "image")
      .map((c) => `${c[3]}x${c[4]}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function exportPdf() {
  const res = await rawPost(owner.client, "/api/export/pdf", { projectId });
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return pdfImages(res.bytes);
}

describe("storing a logo URL", () => {
  it("stores and returns it (branding, settings); it replaces an uploaded logo; null removes it", async () => {
    const uploaded = await setLogo(`data:image/png;base64,${logoPng.toString("base64")}`);
    expect(uploaded.status, uploaded.text).toBe(200);
    const blobBefore = (await db.selectFrom("organizations").select("settings").where("id", "=", owner.organization.id).executeTakeFirstOrThrow()).settings;
    const blobId = JSON.parse(blobBefore!).brandingLogo.blobId as string;

    const url = "https://cdn.example.com/brand/acme-logo.png";
    const res = await setLogo(url);
    expect(res.status, res.text).toBe(200);
    expect(res.body.branding.logoUrl).toBe(url);
    expect((await owner.client.get("/api/organization/branding")).body.branding.logoUrl).toBe(url);
    expect((await owner.client.get("/api/organization/settings")).body.branding.logoUrl).toBe(url);
    expect(await db.selectFrom("blobs").select("id").where("id", "=", blobId).executeTakeFirst()).toBeUndefined();
    const audit = await db
      .selectFrom("auditLogs")
      .select("metadata")
      .where("orgId", "=", owner.organization.id)
      .where("action", "=", "organization.logo_updated")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.metadata)).toMatchObject({ logoUrl: url, source: "url" });
    // The app shell shows it from its address; e-mails use it as it is (no APP_URL in front).
    expect((await owner.client.get("/home")).text).toContain(`src="${url}"`);
    expect(await brandEmailHtml(owner.organization.id, "<html><body><p>Hello</p></body></html>")).toContain(`src="${url}"`);

    expect((await setLogo(null)).body.branding.logoUrl).toBeNull();
    // Saving stores only: nothing was fetched.
    expect(hits).toEqual([]);
  });

  it.each([
    "http://127.0.0.1:8080/logo.png",
    "http://localhost/logo.png",
    "http://[::1]/logo.png",
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.5/logo.png",
    "http://192.168.1.10/logo.png",
  ])("refuses %s when saved (private, loopback or reserved, as for webhooks)", async (url) => {
    const res = await setLogo(url);
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details).toEqual([{ path: "logo", message: "The logo URL cannot point to localhost or a private, loopback or reserved address" }]);
  });

  it("refuses other schemes and credentials; allows loopback only with ALLOW_PRIVATE_WEBHOOK_TARGETS=true", async () => {
    expectError(await setLogo("ftp://example.com/logo.png"), 400, "VALIDATION_ERROR");
    expectError(await setLogo("https://user:secret@example.com/logo.png"), 400, "VALIDATION_ERROR");
    expectError(await setLogo(`https://example.com/${"a".repeat(2100)}.png`), 400, "VALIDATION_ERROR");
    allowLoopback();
    expect((await setLogo(`${base}/logo.png`)).status).toBe(200);
  });
});

describe("the branding page", () => {
  it("saves a logo URL from its form and shows why a private one is refused", async () => {
    const form = (logo: string) =>
      owner.client.call("POST", "/admin/branding", {
        body: new URLSearchParams({ intent: "logo-url", logo }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    const bad = await form("http://10.1.2.3/logo.png");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("cannot point to localhost or a private, loopback or reserved address");
    const ok = await form("https://cdn.example.com/page-logo.png");
    expect(ok.status).toBe(302);
    expect((await owner.client.get("/api/organization/branding")).body.branding.logoUrl).toBe("https://cdn.example.com/page-logo.png");
    expect((await owner.client.get("/admin/branding")).text).toContain('value="https://cdn.example.com/page-logo.png"');
  });
});

describe("fetching it for an export", () => {
  it("the PDF carries the logo fetched from the stand-in, once for several exports; redirects are followed", async () => {
    allowLoopback();
    expect((await setLogo(`${base}/logo.png`)).status).toBe(200);
    expect(await exportPdf()).toContain(`${LOGO_W}x${LOGO_H}`);
    expect(await exportPdf()).toContain(`${LOGO_W}x${LOGO_H}`);
    expect(hits).toEqual(["/logo.png"]);

    expect((await setLogo(`${base}/moved`)).status).toBe(200);
    expect(await exportPdf()).toContain(`${LOGO_W}x${LOGO_H}`);
    expect(hits).toEqual(["/logo.png", "/moved", "/logo.png?via=redirect"]);
  });

  it("refuses the loopback stand-in at fetch time when private targets are not allowed: the PDF has no logo", async () => {
    allowLoopback();
    expect((await setLogo(`${base}/logo.png?stored-while-allowed`)).status).toBe(200);
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined });
    forgetRemoteLogos();
    expect(await exportPdf()).toEqual([]);
    expect(hits).toEqual([]);
  });

  it("checks a name after resolving it: localhost is refused at fetch time, before any request", async () => {
    const port = new URL(base).port;
    const res = await guardedRequest(`http://localhost:${port}/logo.png`, { method: "GET", timeoutMs: 2000 });
    expect(res.error).toMatch(/^Refused: localhost resolves to a private or reserved address/);
    expect(await fetchRemoteLogo(`http://localhost:${port}/logo.png`)).toBeNull();
    expect(hits).toEqual([]);
  });

  it.each([
    ["not an image type", "/page"],
    ["larger than 2 MB", "/huge.png"],
    ["SVG", "/vector.svg"],
    ["a 404", "/missing.png"],
  ])("falls back to no logo for %s, and the export still succeeds", async (_what, p) => {
    allowLoopback();
    expect(await fetchRemoteLogo(`${base}${p}`)).toBeNull();
    forgetRemoteLogos();
    expect((await setLogo(`${base}${p}`)).status).toBe(200);
    expect(await exportPdf()).toEqual([]);
  });
});
