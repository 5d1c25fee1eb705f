process.env.SUPERADMIN_EMAILS = "wiki-docs-root@example.com";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { signedUpClient } from "../support/client";
import { connect, exportEvents, projectWithPrd, useIntegrationMocks } from "../support/integrations";
import { type Account, expectError, signedUpSuperadmin } from "../support/org";

/** POST /api/export/wiki (Confluence storage format) and POST /api/export/docs (Drive multipart upload). */

const mocks = useIntegrationMocks();
const { wiki, docs } = mocks;

const CONTENT = [
  "# Checkout Revamp",
  "Intro with **bold** & <b>markup</b> and a [link](https://example.com/spec).",
  "Line one  \nline two",
  "- [x] shipped\n- [ ] pending",
  "| Metric | Target |\n|---|:-:|\n| Conversion | +3% |",
  "```ts\nconst ok = 1 < 2 && ']]>';\n```",
  "![Flow](https://example.com/flow.png)",
  "---",
  "<details><summary>Open questions</summary>Who signs off?</details>",
  "<script>alert(1)</script>",
].join("\n\n");

let owner: Account;
let projectId: string;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Willa Wiki" });
  projectId = await projectWithPrd(owner.client, "Checkout Revamp", CONTENT);
  await connect(owner.client, "wiki", mocks);
  await connect(owner.client, "docs", mocks);
});

const row = (userId: string, provider: "notes" | "wiki" | "docs") =>
  db.selectFrom("integrationConnections").selectAll().where("userId", "=", userId).where("provider", "=", provider).executeTakeFirstOrThrow();

describe("POST /api/export/wiki", () => {
  it("creates the page in the space under the parent, with well-formed XHTML storage", async () => {
    const res = await owner.client.post("/api/export/wiki", {
      content: CONTENT,
      projectName: "Checkout Revamp PRD",
      spaceId: "ENG",
      parentId: "65601",
      projectId,
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["pageId", "pageUrl", "success"]);
    expect(res.body.success).toBe(true);
    expect(res.body.pageUrl).toBe(`https://acme-eng.atlassian.net/wiki/spaces/ENG/pages/${res.body.pageId}/Checkout+Revamp+PRD`);
    const page = wiki.pages.get(res.body.pageId)!;
    expect(page).toMatchObject({ title: "Checkout Revamp PRD", spaceKey: "ENG", ancestors: ["65601"], representation: "storage" });
    const sent = wiki.requests.filter((r) => r.method === "POST" && r.path.endsWith("/content")).at(-1)!;
    expect(sent.path).toBe(`/ex/confluence/${wiki.cloudId}/wiki/rest/api/content`);
    expect(sent.headers.authorization).toMatch(/^Bearer at_/);
    expect(sent.body).toMatchObject({ type: "page", space: { key: "ENG" }, ancestors: [{ id: "65601" }], body: { storage: { representation: "storage" } } });
    const s = page.storage;
    expect(s).toContain("<h1>Checkout Revamp</h1>");
    expect(s).toContain("<strong>bold</strong> &amp;");
    expect(s).toContain('<a href="https://example.com/spec"');
    expect(s).toContain("line one<br />line two".replace("line one", "Line one"));
    expect(s).toContain("☑ shipped");
    expect(s).toContain("☐ pending");
    expect(s).toMatch(/<table>[\s\S]*<th>Metric<\/th>[\s\S]*<td align="center">\+3%<\/td>/);
    expect(s).toContain(
      '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">ts</ac:parameter><ac:plain-text-body><![CDATA[const ok = 1 < 2 && \']]]]><![CDATA[>\';]]>',
    );
    expect(s).toContain('<ac:image ac:alt="Flow"><ri:url ri:value="https://example.com/flow.png" /></ac:image>');
    expect(s).toContain("<hr />");
    expect(s).toContain('<ac:parameter ac:name="title">Open questions</ac:parameter>');
    expect(s).not.toContain("<script");
    expect(s).not.toContain("<input");
    const events = await exportEvents(owner.organization.id);
    expect(events.at(-1)).toEqual({
      name: "export.completed",
      data: { projectId, format: "wiki", userId: owner.user.id, id: res.body.pageId, url: res.body.pageUrl },
    });
  });

  it("defaults: title from the first heading, the first space; a numeric spaceId is looked up; a used title gets the time appended", async () => {
    const first = await owner.client.post("/api/export/wiki", { content: "# Pricing Page\n\nText." });
    expect(first.status, first.text).toBe(200);
    expect(wiki.pages.get(first.body.pageId)).toMatchObject({ title: "Pricing Page", spaceKey: "ENG", ancestors: [] });
    const spaceLookups = wiki.requests.filter((r) => r.path.endsWith("/space"));
    expect(spaceLookups.at(-1)!.search).toBe("?limit=1");

    const byId = await owner.client.post("/api/export/wiki", { content: "Body only.", projectName: "Roadmap", spaceId: "98306" });
    expect(byId.status, byId.text).toBe(200);
    expect(wiki.pages.get(byId.body.pageId)).toMatchObject({ title: "Roadmap", spaceKey: "PM" });

    const again = await owner.client.post("/api/export/wiki", { content: "# Pricing Page\n\nNewer text." });
    expect(again.status, again.text).toBe(200);
    expect(wiki.pages.get(again.body.pageId)!.title).toMatch(/^Pricing Page \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/);
  });

  it("validates input, checks project access, and passes Confluence errors on as 502", async () => {
    expectError(await owner.client.post("/api/export/wiki", {}), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/export/wiki", { content: "   " }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/export/wiki", { content: "x", parentId: "abc" }), 400, "VALIDATION_ERROR");
    const outsider = await signedUpClient();
    const theirs = await projectWithPrd(outsider.client, "Theirs", "# T");
    expectError(await owner.client.post("/api/export/wiki", { content: "x", projectId: theirs }), 404, "NOT_FOUND");
    expectError(await outsider.client.post("/api/export/wiki", { content: "x" }), 409, "INTEGRATION_NOT_CONNECTED");
    const unknown = await owner.client.post("/api/export/wiki", { content: "x", spaceId: "NOPE" });
    expectError(unknown, 502, "PROVIDER_ERROR");
    expect(unknown.body.error).toBe("Confluence answered 400: No space with key : NOPE");
  });

  it("refreshes an expired access token before calling Confluence and stores the rotated refresh token", async () => {
    const before = await row(owner.user.id, "wiki");
    await db
      .updateTable("integrationConnections")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", before.id)
      .execute();
    const from = wiki.requests.length;
    const res = await owner.client.post("/api/export/wiki", { content: "# After refresh\n\nOk." });
    expect(res.status, res.text).toBe(200);
    const calls = wiki.requests.slice(from).map((r) => (r.path === "/oauth/token" ? `token:${(r.body as any).grant_type}` : r.path.split("/").at(-1)));
    expect(calls).toEqual(["token:refresh_token", "space", "content"]);
    const after = await row(owner.user.id, "wiki");
    expect(decrypt(after.refreshToken!)).not.toBe(decrypt(before.refreshToken!));
    expect(Date.parse(after.expiresAt!)).toBeGreaterThan(Date.now() + 3500_000);
  });

  it("403 FEATURE_DISABLED for export_wiki and export_docs when switched off", async () => {
    const root = await signedUpSuperadmin({ email: "wiki-docs-root@example.com" });
    for (const key of ["export_wiki", "export_docs"]) {
      const set = await root.client.post("/api/feature-flags", { key, enabled: false });
      expect(set.status, set.text).toBeLessThan(300);
    }
    try {
      expectError(await owner.client.post("/api/export/wiki", { content: "x" }), 403, "FEATURE_DISABLED");
      expectError(await owner.client.post("/api/export/docs", { projectId }), 403, "FEATURE_DISABLED");
    } finally {
      for (const key of ["export_wiki", "export_docs"]) await root.client.delete(`/api/feature-flags/${key}`);
    }
  });
});

describe("POST /api/export/docs", () => {
  it("uploads the HTML export as a Google Doc (multipart: metadata with the Docs MIME type, then the HTML)", async () => {
    const res = await owner.client.post("/api/export/docs", { projectId });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["documentId", "documentUrl", "success"]);
    expect(res.body.success).toBe(true);
    expect(res.body.documentUrl).toBe(`https://docs.google.com/document/d/${res.body.documentId}/edit`);
    const file = docs.files.get(res.body.documentId)!;
    expect(file).toMatchObject({ name: "Checkout Revamp", mimeType: "application/vnd.google-apps.document" });
    expect(file.mediaType).toBe("text/html; charset=UTF-8");
    expect(file.media.toLowerCase()).toContain("<!doctype html");
    expect(file.media).toContain("Conversion");
    expect(file.media).toContain("+3%");
    expect(file.media).not.toContain("<script>alert(1)");
    const upload = docs.requests.filter((r) => r.path === "/upload/drive/v3/files").at(-1)!;
    expect(upload.search).toContain("uploadType=multipart");
    expect(upload.headers["content-type"]).toMatch(/^multipart\/related; boundary=/);
    expect(upload.headers.authorization).toMatch(/^Bearer at_/);
    expect((await exportEvents(owner.organization.id)).at(-1)).toMatchObject({
      name: "export.completed",
      data: { projectId, format: "docs", id: res.body.documentId },
    });
  });

  it("refreshes after Drive answers 401, keeping the refresh token Google does not rotate", async () => {
    const before = await row(owner.user.id, "docs");
    docs.expireAccessTokens();
    const refreshed = docs.counters.refreshed;
    const res = await owner.client.post("/api/export/docs", { projectId });
    expect(res.status, res.text).toBe(200);
    expect(docs.counters.refreshed).toBe(refreshed + 1);
    const refresh = docs.requests.filter((r) => r.path === "/token").at(-1)!;
    expect(refresh.body).toMatchObject({ grant_type: "refresh_token", client_id: docs.client.id, client_secret: docs.client.secret });
    const after = await row(owner.user.id, "docs");
    expect(decrypt(after.refreshToken!)).toBe(decrypt(before.refreshToken!));
    expect(decrypt(after.accessToken)).not.toBe(decrypt(before.accessToken));
  });

  it("409 without a Google sign-in, 409 for a project without a PRD, 502 with Drive's message on failure", async () => {
    const other = await signedUpClient();
    const theirs = await projectWithPrd(other.client, "Theirs", "# T");
    expectError(await other.client.post("/api/export/docs", { projectId: theirs }), 409, "INTEGRATION_NOT_CONNECTED");
    const empty = await projectWithPrd(owner.client, "Empty", "");
    expectError(await owner.client.post("/api/export/docs", { projectId: empty }), 409, "CONFLICT");
    docs.failures.push({
      method: "POST",
      path: "/upload/drive/v3/files",
      status: 403,
      body: {
        error: { code: 403, message: "The user's Drive storage quota has been exceeded.", errors: [{ domain: "usageLimits", reason: "storageQuotaExceeded" }] },
      },
    });
    const res = await owner.client.post("/api/export/docs", { projectId });
    expectError(res, 502, "PROVIDER_ERROR");
    expect(res.body.error).toBe("Google answered 403: The user's Drive storage quota has been exceeded.");
  });
});
