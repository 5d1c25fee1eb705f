import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";

const LOGS = "/api/admin/audit-logs";

async function seed(orgId: string) {
  const rows = [
    {
      action: "auth.login_failed",
      category: "auth",
      severity: "warning",
      actorEmail: "eve@example.com",
      createdAt: "2024-03-01T10:00:00.000Z",
      metadata: { note: "=cmd|' /C calc'!A0" },
    },
    { action: "auth.login_failed", category: "auth", severity: "warning", actorEmail: "eve@example.com", createdAt: "2024-03-01T11:00:00.000Z", metadata: {} },
    { action: "auth.locked", category: "auth", severity: "critical", actorEmail: "eve@example.com", createdAt: "2024-03-02T09:00:00.000Z", metadata: {} },
    {
      action: "billing.plan_changed",
      category: "billing",
      severity: "info",
      actorEmail: "+boss@example.com",
      createdAt: "2024-03-03T23:59:00.000Z",
      metadata: { quote: 'say "hi", ok' },
    },
  ] as const;
  for (const r of rows) {
    await db
      .insertInto("auditLogs")
      .values({
        id: crypto.randomUUID(),
        orgId,
        actorId: null,
        actorEmail: r.actorEmail,
        action: r.action,
        category: r.category,
        severity: r.severity,
        targetType: null,
        targetId: null,
        ip: "-1+1",
        userAgent: "@ua",
        metadata: JSON.stringify(r.metadata),
        createdAt: r.createdAt,
      })
      .execute();
  }
}

async function adminWithLogs() {
  const account = await signedUpClient();
  await seed(account.organization.id);
  return account;
}

describe("GET /api/admin/audit-logs", () => {
  it("filters by action, severity, category, actor and dates, with paging and total", async () => {
    const { client } = await adminWithLogs();
    const q = async (qs: string) => {
      const res = await client.get(`${LOGS}?${qs}`);
      expect(res.status, res.text).toBe(200);
      return res.body as { logs: Array<{ action: string; createdAt: string; actor: { email: string } }>; total: number };
    };
    const byAction = await q("action=auth.login_failed");
    expect(byAction.total).toBe(2);
    expect(byAction.logs.map((l) => l.createdAt)).toEqual(["2024-03-01T11:00:00.000Z", "2024-03-01T10:00:00.000Z"]);
    expect((await q("action=auth.*&endDate=2024-03-02")).total).toBe(3);
    expect((await q("severity=critical")).logs.map((l) => l.action)).toEqual(["auth.locked"]);
    expect((await q("category=billing")).total).toBe(1);
    expect((await q("actor=EVE@example.com")).total).toBe(3);
    expect((await q("startDate=2024-03-02&endDate=2024-03-03")).total).toBe(2);
    expect((await q("from=2024-03-01T10:30:00Z&to=2024-03-02")).total).toBe(2);
    const page = await q("category=auth&endDate=2024-12-31&limit=1&offset=1");
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.logs).toHaveLength(1);
    expect(page.logs[0]!.createdAt).toBe("2024-03-01T11:00:00.000Z");

    expect((await client.get(`${LOGS}?severity=loud`)).body.code).toBe("VALIDATION_ERROR");
    expect((await client.get(`${LOGS}?startDate=yesterday`)).status).toBe(400);
    expect((await client.get(`${LOGS}?limit=500`)).status).toBe(400);
  });

  it("summary=true aggregates by category, severity, action and day", async () => {
    const { client } = await adminWithLogs();
    const res = await client.get(`${LOGS}?summary=true&endDate=2024-12-31`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.summary).toEqual({
      total: 4,
      byCategory: { auth: 3, billing: 1 },
      bySeverity: { warning: 2, critical: 1, info: 1 },
      byAction: { "auth.login_failed": 2, "auth.locked": 1, "billing.plan_changed": 1 },
      byDay: [
        { date: "2024-03-01", count: 2 },
        { date: "2024-03-02", count: 1 },
        { date: "2024-03-03", count: 1 },
      ],
    });
  });

  it("members get 403; another organization sees none of it", async () => {
    const { client, organization } = await adminWithLogs();
    const other = await signedUpClient();
    const own = await other.client.get(`${LOGS}?endDate=2024-12-31`);
    expect(own.status).toBe(200);
    expect(own.body.total).toBe(0);
    await db
      .insertInto("memberships")
      .values({ id: crypto.randomUUID(), orgId: organization.id, userId: other.user.id, role: "member", createdAt: new Date().toISOString() })
      .execute();
    await db.updateTable("sessions").set({ orgId: organization.id }).where("userId", "=", other.user.id).execute();
    const denied = await other.client.get(LOGS);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("FORBIDDEN");
    expect((await other.client.get(`${LOGS}/export`)).status).toBe(403);
    expect((await client.get(`${LOGS}?endDate=2024-12-31`)).body.total).toBe(4);
  });
});

describe("GET /api/admin/audit-logs/export", () => {
  it("CSV: attachment, quoted, formula-safe, filtered; the export is audited", async () => {
    const { client, organization } = await adminWithLogs();
    const res = await client.get(`${LOGS}/export?format=csv&endDate=2024-12-31`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"createdAt","action","category","severity","actorId","actorEmail","targetType","targetId","ip","userAgent","metadata"');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain(`"'+boss@example.com"`);
    expect(lines[1]).toContain(`"'-1+1","'@ua"`);
    expect(lines[1]).toContain('"{""quote"":""say \\""hi\\"", ok""}"');
    expect(res.text).not.toMatch(/(^|,)"[=+\-@]/m);
    const filtered = await client.get(`${LOGS}/export?category=billing&endDate=2024-12-31`);
    expect(filtered.text.trimEnd().split("\r\n")).toHaveLength(2);

    const audit = await db.selectFrom("auditLogs").selectAll().where("orgId", "=", organization.id).where("action", "=", "audit_log.exported").execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ category: "security", severity: "warning", ip: client.ip });
  });

  it("JSON: attachment with the filtered entries", async () => {
    const { client } = await adminWithLogs();
    const res = await client.get(`${LOGS}/export?format=json&severity=warning`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="audit-log-.*\.json"/);
    const body = JSON.parse(res.text);
    expect(body.total).toBe(2);
    expect(body.logs.every((l: { action: string }) => l.action === "auth.login_failed")).toBe(true);
    expect(body.logs[0].metadata).toEqual({});
    expect((await client.get(`${LOGS}/export?format=xml`)).status).toBe(400);
  });
});
