import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "#db/client";
import { migrations } from "#db/migrations";

/**
 * Migration 0029 on a database that already has tracker connections: one that
 * sent stories starts limited to the targets it already used (an upgrade does
 * not leave every repository of the token open); one that sent nothing stays
 * unlimited until an admin chooses (docs/trackers.md, "Where stories may be sent").
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "m0029-"));
const { db, sqlite } = createDb(path.join(dir, "app.db"));
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("0029_webhook_deliveries", () => {
  it("keeps used targets as the allowed list, leaves unused connections unlimited, and can be undone", async () => {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0028_tracker_send_locks")).error).toBeUndefined();
    sqlite.pragma("foreign_keys = OFF");
    const now = new Date().toISOString();
    const connection = (id: string) =>
      sql`INSERT INTO trackerConnections (id, orgId, service, authKind, tokenEncrypted, accountLabel, settings, webhookSecretEncrypted, createdAt, updatedAt)
          VALUES (${id}, 'org', 'github', 'token', 'x', 'octocat', '{}', 'y', ${now}, ${now})`.execute(db);
    const issue = (id: string, connectionId: string, target: string) =>
      sql`INSERT INTO trackerIssues (id, orgId, projectId, connectionId, service, target, storyKey, externalId, externalKey, url, title, state, lastSyncedAt, createdAt)
          VALUES (${id}, 'org', 'p', ${connectionId}, 'github', ${target}, ${id}, ${id}, ${id}, 'u', 't', 'open', ${now}, ${now})`.execute(db);
    await connection("used");
    await connection("unused");
    await issue("i1", "used", "acme/web");
    await issue("i2", "used", "acme/app");
    await issue("i3", "used", "acme/app");
    sqlite.pragma("foreign_keys = ON");

    expect((await migrator.migrateTo("0029_webhook_deliveries")).error).toBeUndefined();
    const rows = await db.selectFrom("trackerConnections").select(["id", "allowedTargets"]).orderBy("id").execute();
    expect(rows.map((r) => [r.id, r.allowedTargets === null ? null : JSON.parse(r.allowedTargets)])).toEqual([
      ["unused", null],
      [
        "used",
        [
          { id: "acme/app", name: "acme/app" },
          { id: "acme/web", name: "acme/web" },
        ],
      ],
    ]);
    await db.insertInto("trackerWebhookDeliveries").values({ connectionId: "used", deliveryKey: "id:1", receivedAt: now }).execute();
    await expect(db.insertInto("trackerWebhookDeliveries").values({ connectionId: "used", deliveryKey: "id:1", receivedAt: now }).execute()).rejects.toThrow(
      /UNIQUE/,
    );
    await db.deleteFrom("trackerConnections").where("id", "=", "used").execute();
    expect(await db.selectFrom("trackerWebhookDeliveries").selectAll().execute()).toEqual([]);

    expect((await migrator.migrateTo("0028_tracker_send_locks")).error).toBeUndefined();
    const columns = sqlite.prepare("SELECT name FROM pragma_table_info('trackerConnections')").all() as { name: string }[];
    expect(columns.map((c) => c.name)).not.toContain("allowedTargets");
  });
});
