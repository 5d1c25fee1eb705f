import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { resetDomainRateLimitForTests } from "~/domain/domains/domains.server";
import { brandEmailHtml } from "~/domain/branding/email-branding.server";
import { remixHandler } from "../support/build";
import { ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { startDnsServer, type DnsRecords } from "../support/dns-server";
import { expectError, joinOrg, setPlan, type Account } from "../support/org";

const records: DnsRecords = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let owner: Account;
let other: Account;

beforeAll(async () => {
  dns = await startDnsServer(records);
  process.env.DNS_SERVERS = dns.address;
  resetConfigForTests();
  owner = await signedUpClient();
  other = await signedUpClient();
  await setPlan(owner.organization.id, "pro");
  await setPlan(other.organization.id, "pro");
});
afterAll(async () => {
  delete process.env.DNS_SERVERS;
  resetConfigForTests();
  await dns.close();
});

function upload(client: TestClient, file: { bytes: Uint8Array | string; name: string; type?: string }) {
  const fd = new FormData();
  fd.append("file", new File([file.bytes as BlobPart], file.name, file.type ? { type: file.type } : {}));
  return client.call("POST", "/api/organization/branding/logo", { body: fd });
}

async function fetchRaw(path: string, headers: Record<string, string> = {}) {
  const res = await remixHandler()(new Request(`http://localhost:3000${path}`, { headers: { Host: "localhost:3000", ...headers } }), { ip: "10.9.9.9" });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function sharedProject(account: Account, name: string) {
  const created = await account.client.post("/api/projects", { name });
  expect(created.status, created.text).toBe(201);
  const id = created.body.project?.id ?? created.body.id;
  const share = await account.client.post(`/api/projects/${id}/share`, {});
  expect(share.status, share.text).toBe(201);
  return share.body.shareToken as string;
}

describe("branding", () => {
  it("validates colours and saves company name and colours (admins only)", async () => {
    expectError(await owner.client.post("/api/organization/branding", { primaryColor: "red" }), 400, "VALIDATION_ERROR");
    const bad = await owner.client.post("/api/organization/branding", { primaryColor: "#12345g" });
    expect(bad.body.details?.[0]?.path).toBe("primaryColor");
    expectError(await owner.client.post("/api/organization/branding", { unknown: 1 }), 400, "VALIDATION_ERROR");
    const ok = await owner.client.post("/api/organization/branding", { primaryColor: "#0f766e", companyName: "Acme Docs" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.branding).toMatchObject({ primaryColor: "#0f766e", companyName: "Acme Docs", logoUrl: null });
    const read = await owner.client.get("/api/organization/branding");
    expect(read.body.branding.companyName).toBe("Acme Docs");
    const settings = await owner.client.get("/api/organization/settings");
    expect(settings.body.branding.primaryColor).toBe("#0f766e");

    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    expectError(await member.client.post("/api/organization/branding", { companyName: "Hijack" }), 403, "FORBIDDEN");
    expectError(
      await upload(member.client, {
        bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
          .png()
          .toBuffer(),
        name: "a.png",
      }),
      403,
      "FORBIDDEN",
    );
    expect((await member.client.get("/api/organization/branding")).body.branding.companyName).toBe("Acme Docs");
  });

  it("uploads a logo: re-encoded PNG, resized to 512 px, served publicly with caching", async () => {
    const big = await sharp({ create: { width: 1200, height: 600, channels: 3, background: "#ff0000" } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret-exif" } } })
      .toBuffer();
    const res = await upload(owner.client, { bytes: big, name: "logo.jpg", type: "image/jpeg" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.logoUrl).toMatch(new RegExp(`^/api/branding/logo/${owner.organization.id}/[0-9a-f]{16}$`));
    const served = await fetchRaw(res.body.logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Cache-Control")).toContain("immutable");
    const meta = await sharp(served.bytes).metadata();
    expect(meta.format).toBe("png");
    expect(Math.max(meta.width!, meta.height!)).toBe(512);
    expect(served.bytes.includes(Buffer.from("secret-exif"))).toBe(false);
    const etag = served.headers.get("ETag")!;
    expect((await fetchRaw(res.body.logoUrl, { "If-None-Match": etag })).status).toBe(304);
    expect((await fetchRaw(`/api/branding/logo/${owner.organization.id}/0000000000000000`)).status).toBe(404);
    expect((await owner.client.get("/api/organization/branding")).body.branding.logoUrl).toBe(res.body.logoUrl);

    // A new logo gets a new URL; the old one stops working.
    const small = await sharp({ create: { width: 40, height: 40, channels: 4, background: "#00ff00" } })
      .png()
      .toBuffer();
    const next = await upload(owner.client, { bytes: small, name: "logo.png" });
    expect(next.body.logoUrl).not.toBe(res.body.logoUrl);
    expect((await fetchRaw(res.body.logoUrl)).status).toBe(404);
    expect((await fetchRaw(next.body.logoUrl)).status).toBe(200);
  });

  it("refuses too large, disguised, SVG and damaged files", async () => {
    const tooBig = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2 * 1024 * 1024 + 10, 1)]);
    expectError(await upload(owner.client, { bytes: tooBig, name: "huge.png" }), 413, "PAYLOAD_TOO_LARGE");
    const exe = Buffer.concat([
      Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"),
      Buffer.alloc(500, 0),
      Buffer.from("This program cannot be run in DOS mode"),
    ]);
    expectError(await upload(owner.client, { bytes: exe, name: "logo.png", type: "image/png" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    expectError(await upload(owner.client, { bytes: svg, name: "logo.svg", type: "image/svg+xml" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    const truncated = (
      await sharp({ create: { width: 64, height: 64, channels: 3, background: "#123456" } })
        .png()
        .toBuffer()
    ).subarray(0, 60);
    expectError(await upload(owner.client, { bytes: truncated, name: "cut.png" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await owner.client.call("POST", "/api/organization/branding/logo", { json: {} }), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("accepts a base64 logo in the JSON body and removes it with null", async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const set = await other.client.post("/api/organization/branding", { logo: `data:image/png;base64,${png.toString("base64")}` });
    expect(set.status, set.text).toBe(200);
    expect(set.body.branding.logoUrl).toMatch(/^\/api\/branding\/logo\//);
    const gone = await other.client.post("/api/organization/branding", { logo: null });
    expect(gone.body.branding.logoUrl).toBeNull();
    expect((await fetchRaw(set.body.branding.logoUrl)).status).toBe(404);
  });

  it("shows on the share page, in the app shell and in e-mails", async () => {
    const token = await sharedProject(owner, "Branded spec");
    const page = await fetchRaw(`/share/${token}`);
    expect(page.status).toBe(200);
    const html = page.bytes.toString("utf8");
    expect(html).toContain("Acme Docs");
    expect(html).toContain("--brand:#0f766e");
    expect(html).toMatch(/<img[^>]+src="\/api\/branding\/logo\//);

    const shell = await owner.client.get("/projects");
    expect(shell.text).toContain("Acme Docs");
    expect(shell.text).toContain("--brand:#0f766e");

    const mail = await brandEmailHtml(
      owner.organization.id,
      '<!doctype html><html><body style="x"><p>Hi</p><a style="background:#4f46e5;color:#fff">Go</a></body></html>',
    );
    expect(mail).toContain("Acme Docs");
    expect(mail).toContain("background:#0f766e;");
    expect(await brandEmailHtml(other.organization.id, "<body><p>Hi</p></body>")).toBe("<body><p>Hi</p></body>");

    // Mail the organization sends (here an invitation) carries the branding header.
    const invited = await owner.client.post("/api/invitations", { email: `brand-${Date.now()}@example.com`, role: "member" });
    expect(invited.status, invited.text).toBe(201);
    const sent = await db
      .selectFrom("emails")
      .select(["html", "orgId"])
      .where("orgId", "=", owner.organization.id)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(sent.html).toContain("Acme Docs");
  });
});

describe("custom domain", () => {
  beforeEach(() => resetDomainRateLimitForTests());

  it("validates the hostname and returns the DNS records to create", async () => {
    for (const domain of ["https://docs.acme.test", "docs.acme.test:8443", "no_dots", "1.2.3.4", "-bad.acme.test", "localhost"]) {
      expectError(await owner.client.post("/api/organization/domain", { domain }), 400, "VALIDATION_ERROR");
    }
    expect((await owner.client.get("/api/organization/domain")).body).toEqual({ domain: null });
    expectError(await owner.client.post("/api/organization/domain/verify", {}), 400, "VALIDATION_ERROR");
    const res = await owner.client.post("/api/organization/domain", { domain: "Docs.Acme.test." });
    expect(res.status, res.text).toBe(200);
    expect(res.body.domain).toMatchObject({ domain: "docs.acme.test", verified: false, lastCheck: null });
    const [cname, txt] = res.body.domain.records;
    expect(cname).toEqual({ type: "CNAME", name: "docs.acme.test", value: "localhost" });
    expect(txt.name).toBe("_prd-verification.docs.acme.test");
    expect(txt.value).toMatch(/^prd-verify-[0-9a-f]{32}$/);
    const member = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
    expectError(await member.client.post("/api/organization/domain", { domain: "x.acme.test" }), 403, "FORBIDDEN");
    expectError(await member.client.post("/api/organization/domain/verify", {}), 403, "FORBIDDEN");
  });

  it("reports a missing TXT record and a wrong CNAME, then verifies", async () => {
    const state = (await owner.client.get("/api/organization/domain")).body.domain;
    const token = state.records[1].value as string;
    records["docs.acme.test"] = { CNAME: "localhost" };
    let res = await owner.client.post("/api/organization/domain/verify", {});
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ verified: false, checks: { cname: true, txt: false } });
    expect(res.body.message).toContain("_prd-verification.docs.acme.test");
    expect(res.headers.get("X-RateLimit-Limit")).toBe("5");

    records["docs.acme.test"] = { CNAME: "elsewhere.example.net" };
    records["_prd-verification.docs.acme.test"] = { TXT: [token] };
    res = await owner.client.post("/api/organization/domain/verify", {});
    expect(res.body).toMatchObject({ verified: false, checks: { cname: false, txt: true } });
    expect(res.body.message).toContain("elsewhere.example.net");

    records["_prd-verification.docs.acme.test"] = { TXT: ["prd-verify-wrong"] };
    records["docs.acme.test"] = { CNAME: "localhost" };
    res = await owner.client.post("/api/organization/domain/verify", {});
    expect(res.body.checks).toEqual({ cname: true, txt: false });

    records["_prd-verification.docs.acme.test"] = { TXT: ["v=spf1 -all", token] };
    res = await owner.client.post("/api/organization/domain/verify", {});
    expect(res.body).toEqual({ verified: true, checks: { cname: true, txt: true }, message: expect.stringContaining("verified") });
    expect(dns.queries).toContain("_prd-verification.docs.acme.test");
    const after = (await owner.client.get("/api/organization/domain")).body.domain;
    expect(after).toMatchObject({ verified: true, lastCheck: { verified: true } });
    const audit = await db
      .selectFrom("auditLogs")
      .select("action")
      .where("orgId", "=", owner.organization.id)
      .where("action", "=", "organization.domain_verified")
      .execute();
    expect(audit).toHaveLength(1);
    // Another organization cannot claim a verified domain.
    expectError(await other.client.post("/api/organization/domain", { domain: "docs.acme.test" }), 409, "CONFLICT");
  });

  it("limits verification to 5 a minute per organization", async () => {
    for (let i = 0; i < 5; i++) expect((await owner.client.post("/api/organization/domain/verify", {})).status).toBe(200);
    const limited = await owner.client.post("/api/organization/domain/verify", {});
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    // Per organization: another one is not affected.
    await other.client.post("/api/organization/domain", { domain: "specs.other.test" });
    expect((await other.client.post("/api/organization/domain/verify", {})).status).toBe(200);
  });

  it("serves the share page with the domain's branding and refuses other organizations' tokens", async () => {
    const mine = await sharedProject(owner, "On my domain");
    const theirs = await sharedProject(other, "Not on my domain");
    const page = await fetchRaw(`/share/${mine}`, { Host: "docs.acme.test" });
    expect(page.status).toBe(200);
    expect(page.bytes.toString("utf8")).toContain("Acme Docs");
    expect((await fetchRaw(`/share/${theirs}`, { Host: "docs.acme.test" })).status).toBe(404);
    expect((await fetchRaw(`/share/${theirs}`)).status).toBe(200);
  });
});

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: [string, string][]) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });

describe("admin pages without JavaScript", () => {
  beforeEach(() => resetDomainRateLimitForTests());

  it("branding page: saved values in the preview, colour validation, logo upload form", async () => {
    const page = await owner.client.get("/admin/branding");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<form[^>]*method="post"[^>]*enctype="multipart\/form-data"/i);
    expect(page.text).toMatch(/<label for="field-primaryColor">Primary colour<\/label>/);
    expect(page.text).toMatch(/data-testid="branding-preview"[\s\S]*Acme Docs/);
    expect(page.text).toContain('value="#0f766e"');

    const bad = await postForm(owner.client, "/admin/branding", [
      ["intent", "colors"],
      ["companyName", "x".repeat(101)],
      ["primaryColor", "#112233"],
    ]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("At most 100 characters");

    const ok = await postForm(owner.client, "/admin/branding", [
      ["intent", "colors"],
      ["companyName", "Acme Specs"],
      ["primaryColor", "#112233"],
      ["accentColor", "#445566"],
    ]);
    expect(ok.status).toBe(302);
    const after = await owner.client.get("/admin/branding");
    expect(after.text).toContain("Branding saved.");
    expect(after.text).toMatch(/data-testid="branding-preview"[\s\S]*Acme Specs/);
    expect((await owner.client.get("/api/organization/branding")).body.branding).toMatchObject({ primaryColor: "#112233", companyName: "Acme Specs" });

    const fd = new FormData();
    fd.append(
      "file",
      new File(
        [
          await sharp({ create: { width: 30, height: 30, channels: 3, background: "#abcdef" } })
            .png()
            .toBuffer(),
        ],
        "l.png",
      ),
    );
    const up = await owner.client.call("POST", "/admin/branding", { body: fd });
    expect(up.status).toBe(302);
    const fd2 = new FormData();
    fd2.append("file", new File(["<svg xmlns='http://www.w3.org/2000/svg'/>"], "l.svg"));
    const refused = await owner.client.call("POST", "/admin/branding", { body: fd2 });
    expect(refused.status).toBe(415);
    expect(refused.text).toContain("not a recognised image");
  });

  it("domain page: records in <code>, verify shows the result, viewers are turned away", async () => {
    const page = await owner.client.get("/admin/domain");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<code");
    expect(page.text).toContain("_prd-verification.docs.acme.test");
    expect(page.text).toMatch(/name="intent" value="verify"/);
    const res = await postForm(owner.client, "/admin/domain", [["intent", "verify"]]);
    expect(res.status).toBe(200);
    expect(res.text).toContain("docs.acme.test is verified");
    const invalid = await postForm(owner.client, "/admin/domain", [
      ["intent", "set"],
      ["domain", "not a domain"],
    ]);
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain("Enter a hostname");

    const fresh = await signedUpClient();
    const empty = await fresh.client.get("/admin/domain");
    expect(empty.text).toContain("No custom domain yet");
    const viewer = await joinOrg(owner.organization.id, "viewer", "Val Viewer");
    const denied = await viewer.client.get("/admin/domain");
    expect(denied.text).toContain("Administration is for owners and admins");
    expect(denied.text).not.toContain("_prd-verification");
  });
});
