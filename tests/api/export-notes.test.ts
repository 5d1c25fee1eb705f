process.env.SUPERADMIN_EMAILS = "notes-root@example.com";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { blocksText } from "~/domain/integrations/notes-blocks";
import { decrypt } from "~/utils/crypto.server";
import { signedUpClient } from "../support/client";
import { connect, exportEvents, projectWithPrd, useIntegrationMocks } from "../support/integrations";
import { type Account, expectError, joinOrg, setPlan, signedUpSuperadmin } from "../support/org";

/** POST /api/export/notes against the Notion stand-in, which enforces Notion's request limits. */

const mocks = useIntegrationMocks();
const notes = mocks.notes;

function longPrd() {
  const parts: string[] = ["Intro paragraph before any heading."];
  for (let i = 1; i <= 40; i++) {
    parts.push(
      `## Section ${i}: Goal ${i}`,
      `Paragraph ${i} with **bold-${i}**, _italic-${i}_, \`code-${i}\` and a [link-${i}](https://example.com/${i}).`,
      `- bullet-${i}-a\n- bullet-${i}-b\n  - nested-${i}`,
      `1. step-${i}-one\n2. step-${i}-two`,
      `| Metric | Target |\n|---|---|\n| metric-${i} | target-${i} |`,
      "```ts\nconst value" + i + " = " + i + ";\n```",
    );
  }
  const rows = Array.from({ length: 150 }, (_, r) => `| row-${r + 1} | value-${r + 1} |`).join("\n");
  parts.push("## Appendix", `long-${"x".repeat(4500)}-end`, `| Key | Value |\n|---|---|\n${rows}`, "---", "> closing-quote");
  return parts.join("\n\n");
}

let owner: Account;
let projectId: string;
const PRD = longPrd();

beforeAll(async () => {
  owner = await signedUpClient({ name: "Nell Notes" });
  projectId = await projectWithPrd(owner.client, "Checkout Revamp", PRD);
  await connect(owner.client, "notes", mocks);
});

const pageRequests = () => notes.requests.filter((r) => r.path === "/v1/pages" && r.method === "POST");
const appendRequests = (pageId: string) => notes.requests.filter((r) => r.method === "PATCH" && r.path === `/v1/blocks/${pageId}/children`);

describe("POST /api/export/notes", () => {
  it("409 INTEGRATION_NOT_CONNECTED without a connection; 404 for another organization's project; 409 for a project without a PRD", async () => {
    const other = await signedUpClient();
    const theirs = await projectWithPrd(other.client, "Theirs", "# Theirs");
    const res = await other.client.post("/api/export/notes", { projectId: theirs });
    expectError(res, 409, "INTEGRATION_NOT_CONNECTED");
    expect(res.body.error).toContain("/api/integrations/notes/connect");
    expectError(await owner.client.post("/api/export/notes", { projectId: theirs }), 404, "NOT_FOUND");
    const empty = await projectWithPrd(owner.client, "Empty", "");
    expectError(await owner.client.post("/api/export/notes", { projectId: empty }), 409, "CONFLICT");
    expectError(await owner.client.post("/api/export/notes", {}), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/export/notes", { projectId, parentPageId: "not a page" }), 400, "VALIDATION_ERROR");
  });

  it("403 FEATURE_DISABLED when export_notes is off for the organization", async () => {
    const root = await signedUpSuperadmin({ email: "notes-root@example.com" });
    const set = await root.client.post("/api/feature-flags", { key: "export_notes", enabled: true, rules: { denyOrgIds: [owner.organization.id] } });
    expect(set.status, set.text).toBeLessThan(300);
    try {
      const res = await owner.client.post("/api/export/notes", { projectId });
      expectError(res, 403, "FEATURE_DISABLED");
      expect(res.body.flag).toBe("export_notes");
    } finally {
      await root.client.delete("/api/feature-flags/export_notes");
    }
  });

  it("creates the page with the first 100 blocks and appends the rest in order; Notion receives all the text", async () => {
    const before = notes.requests.length;
    const res = await owner.client.post("/api/export/notes", { projectId });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["pageId", "pageUrl", "success"]);
    expect(res.body.success).toBe(true);
    const page = notes.pages.get(res.body.pageId)!;
    expect(res.body.pageUrl).toBe(page.url);
    expect(page.title).toBe("Checkout Revamp");
    expect(page.parentId).toBe(notes.shared[0]);

    const created = pageRequests().at(-1)!;
    expect(created.headers["notion-version"]).toBe("2022-06-28");
    expect(created.headers.authorization).toMatch(/^Bearer at_/);
    expect((created.body as any).children).toHaveLength(100);
    const appends = appendRequests(res.body.pageId);
    expect(appends.length).toBeGreaterThanOrEqual(3);
    for (const a of appends) expect((a.body as any).children.length).toBeLessThanOrEqual(100);
    const sent = [(created.body as any).children, ...appends.map((a) => (a.body as any).children)].flat();
    expect(page.children).toEqual(sent);
    expect(notes.requests.slice(before).map((r) => `${r.method} ${r.path.startsWith("/v1/blocks") ? "append" : r.path}`)).toEqual([
      "POST /v1/search",
      "POST /v1/pages",
      ...appends.map(() => "PATCH append"),
    ]);

    const headings = page.children.filter((b) => b.type === "heading_2").map((b) => b.heading_2.rich_text.map((r: any) => r.text.content).join(""));
    expect(headings).toEqual([...Array.from({ length: 40 }, (_, i) => `Section ${i + 1}: Goal ${i + 1}`), "Appendix"]);

    const text = blocksText(page.children);
    for (const i of [1, 17, 40]) {
      for (const word of [
        `bold-${i}`,
        `italic-${i}`,
        `code-${i}`,
        `link-${i}`,
        `bullet-${i}-b`,
        `nested-${i}`,
        `step-${i}-two`,
        `metric-${i}`,
        `target-${i}`,
        `const value${i} = ${i};`,
      ]) {
        expect(text).toContain(word);
      }
    }
    expect(text).toContain(`long-${"x".repeat(4500)}-end`);
    expect(text).toContain("row-150");
    expect(text).toContain("closing-quote");
    expect(text).toContain("Draft");

    const para = page.children.find((b) => b.type === "paragraph" && JSON.stringify(b).includes("bold-3"))!;
    const runs = para.paragraph.rich_text;
    expect(runs.find((r: any) => r.text.content === "bold-3").annotations.bold).toBe(true);
    expect(runs.find((r: any) => r.text.content === "italic-3").annotations.italic).toBe(true);
    expect(runs.find((r: any) => r.text.content === "code-3").annotations.code).toBe(true);
    expect(runs.find((r: any) => r.text.content === "link-3").text.link).toEqual({ url: "https://example.com/3" });
    const bullet = page.children.find((b) => b.type === "bulleted_list_item" && JSON.stringify(b).includes("bullet-3-b"))!;
    expect(bullet.bulleted_list_item.children[0].bulleted_list_item.rich_text[0].text.content).toBe("nested-3");
    expect(page.children.find((b) => b.type === "code").code.language).toBe("typescript");
    const long = page.children.find((b) => JSON.stringify(b).includes("long-xxx"))!;
    expect(long.paragraph.rich_text.map((r: any) => r.text.content.length)).toEqual([2000, 2000, 509]);

    const tables = page.children.filter((b) => b.type === "table");
    expect(tables).toHaveLength(42);
    const [big1, big2] = tables.slice(-2);
    expect(big1.table).toMatchObject({ table_width: 2, has_column_header: true });
    expect(big1.table.children).toHaveLength(100);
    expect(big2.table.children).toHaveLength(52);
    expect(big2.table.children[0].table_row.cells[0][0].text.content).toBe("Key");
    expect(page.children.some((b) => b.type === "divider")).toBe(true);
    expect(page.children.at(-1).type).toBe("quote");

    const events = await exportEvents(owner.organization.id);
    expect(events.at(-1)).toEqual({
      name: "export.completed",
      data: { projectId, format: "notes", userId: owner.user.id, id: res.body.pageId, url: res.body.pageUrl },
    });
  });

  it("puts the page under parentPageId (an id or a page URL)", async () => {
    const parent = notes.shared[0]!;
    const url = `https://www.notion.so/acme/Roadmap-${parent.replace(/-/g, "")}?pvs=4`;
    const res = await owner.client.post("/api/export/notes", { projectId, parentPageId: url });
    expect(res.status, res.text).toBe(200);
    expect((pageRequests().at(-1)!.body as any).parent).toEqual({ page_id: parent });
    const missing = await owner.client.post("/api/export/notes", { projectId, parentPageId: "0123456789abcdef0123456789abcdef" });
    expectError(missing, 502, "PROVIDER_ERROR");
    expect(missing.body.error).toContain("Could not find page with ID");
  });

  it("refreshes a token Notion no longer accepts, persists the rotated refresh token, and completes", async () => {
    const before = await db
      .selectFrom("integrationConnections")
      .selectAll()
      .where("userId", "=", owner.user.id)
      .where("provider", "=", "notes")
      .executeTakeFirstOrThrow();
    const refreshed = notes.counters.refreshed;
    notes.expireAccessTokens();
    const small = await projectWithPrd(owner.client, "Small", "# Small\n\nJust this.");
    const res = await owner.client.post("/api/export/notes", { projectId: small });
    expect(res.status, res.text).toBe(200);
    expect(notes.counters.refreshed).toBe(refreshed + 1);
    const refresh = notes.requests.filter((r) => r.path === "/v1/oauth/token").at(-1)!;
    expect(refresh.body).toEqual({ grant_type: "refresh_token", refresh_token: decrypt(before.refreshToken!) });
    const after = await db.selectFrom("integrationConnections").selectAll().where("id", "=", before.id).executeTakeFirstOrThrow();
    expect(decrypt(after.accessToken)).not.toBe(decrypt(before.accessToken));
    expect(decrypt(after.refreshToken!)).not.toBe(decrypt(before.refreshToken!));
    expect(blocksText(notes.pages.get(res.body.pageId)!.children)).toContain("Just this.");
  });

  it("retries a 429 after its Retry-After, then gives up with 502 and Retry-After", async () => {
    const small = await projectWithPrd(owner.client, "Rate limited", "Some text.");
    mocks.waits.length = 0;
    const attempts = pageRequests().length;
    notes.rateLimit("/v1/pages", "POST", "2");
    const ok = await owner.client.post("/api/export/notes", { projectId: small });
    expect(ok.status, ok.text).toBe(200);
    expect(mocks.waits).toEqual([2000]);
    expect(pageRequests().length).toBe(attempts + 2);

    for (let i = 0; i < 3; i++) notes.rateLimit("/v1/pages", "POST", "1");
    const limited = await owner.client.post("/api/export/notes", { projectId: small });
    expectError(limited, 502, "PROVIDER_ERROR");
    expect(limited.headers.get("Retry-After")).toBe("1");
    expect(limited.body.error).toContain("rate limit");
    expect(mocks.waits).toEqual([2000, 1000, 1000]);
  });

  it("a Notion 500 → 502 PROVIDER_ERROR with Notion's message, and an export.failed event", async () => {
    const small = await projectWithPrd(owner.client, "Broken", "Text.");
    notes.failures.push({
      method: "POST",
      path: "/v1/pages",
      status: 500,
      body: { object: "error", status: 500, code: "internal_server_error", message: "Unexpected error occurred." },
    });
    const res = await owner.client.post("/api/export/notes", { projectId: small });
    expectError(res, 502, "PROVIDER_ERROR");
    expect(res.body.error).toBe("Notion answered 500: Unexpected error occurred.");
    const last = (await exportEvents(owner.organization.id)).at(-1)!;
    expect(last).toMatchObject({ name: "export.failed", data: { projectId: small, format: "notes", userId: owner.user.id } });
    expect(String(last.data.error)).toContain("Unexpected error occurred.");
  });

  it("a refused refresh removes the dead connection: 409 INTEGRATION_NOT_CONNECTED, then status shows disconnected", async () => {
    const member = await joinOrg(owner.organization.id, "member", "Max Member");
    await connect(member.client, "notes", mocks);
    const small = await projectWithPrd(member.client, "Member doc", "Hello.");
    notes.expireAccessTokens();
    notes.invalidateRefreshTokens();
    const res = await member.client.post("/api/export/notes", { projectId: small });
    expectError(res, 409, "INTEGRATION_NOT_CONNECTED");
    expect((await member.client.get("/api/integrations/status")).body.integrations.notes.connected).toBe(false);
    const last = (await exportEvents(owner.organization.id)).at(-1)!;
    expect(last).toMatchObject({ name: "export.failed", data: { format: "notes", userId: member.user.id } });
  });

  it("is held by an active prd_export approval workflow; the approval lets one export through, given back when it fails", async () => {
    const boss = await signedUpClient({ name: "Bea Boss" });
    const approver = await joinOrg(boss.organization.id, "admin", "Abe Approver");
    await setPlan(boss.organization.id, "enterprise");
    const wf = await boss.client.post("/api/admin/approval-workflows", { name: "Exports", triggerType: "prd_export", approverIds: [approver.user.id] });
    expect(wf.status, wf.text).toBe(201);
    await connect(boss.client, "notes", mocks);
    const held = await projectWithPrd(boss.client, "Held Plan", "Needs sign-off.");
    const first = await boss.client.post("/api/export/notes", { projectId: held });
    expect(first.status, first.text).toBe(202);
    expect(first.body).toMatchObject({ code: "APPROVAL_REQUIRED", approvalRequest: { triggerType: "prd_export", target: { id: held, label: "Held Plan" } } });
    expect((await approver.client.post(`/api/approvals/${first.body.approvalRequest.id}/approve`, { comment: "ok" })).status).toBe(200);

    notes.failures.push({
      method: "POST",
      path: "/v1/pages",
      status: 503,
      body: { object: "error", status: 503, code: "service_unavailable", message: "Notion is unavailable." },
    });
    expectError(await boss.client.post("/api/export/notes", { projectId: held }), 502, "PROVIDER_ERROR");
    const ok = await boss.client.post("/api/export/notes", { projectId: held });
    expect(ok.status, ok.text).toBe(200);
    expect((await boss.client.post("/api/export/notes", { projectId: held })).status).toBe(202);
  });
});
