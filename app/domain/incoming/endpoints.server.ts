import type { IncomingWebhooksTable } from "#db/schema";
import { sql } from "kysely";
import { db, type Executor } from "~/db.server";
import { newId, nowIso, randomToken, sha256 } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { notFound, validationError } from "../errors";
import { INCOMING_EVENT_LOG, type CreateIncomingInput, type UpdateIncomingInput } from "./incoming.schema";
import type { Selectable } from "kysely";

/**
 * Incoming webhook endpoints: an admin creates one, gets a secret URL
 * (`/api/webhooks/incoming/{token}`) shown once, and every POST to it runs
 * the endpoint's action as that admin. Only the token's sha256 is stored.
 */

type Row = Selectable<IncomingWebhooksTable> & { createdByName?: string | null };

export const incomingUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/$/, "")}/api/webhooks/incoming/${token}`;

function present(row: Row) {
  const config = JSON.parse(row.config || "{}") as { projectId?: string };
  return {
    id: row.id,
    name: row.name,
    action: row.action,
    config: { projectId: config.projectId ?? null },
    isActive: row.isActive === 1,
    tokenPrefix: row.tokenPrefix,
    lastEventAt: row.lastEventAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: { id: row.createdById, name: row.createdByName ?? null },
  };
}
export type PublicIncomingWebhook = ReturnType<typeof present>;

function newToken() {
  const token = `inc_${randomToken(24)}`;
  return { token, tokenHash: sha256(token), tokenPrefix: token.slice(0, 10) };
}

/** add_comment needs a project of this organization. */
async function checkConfig(trx: Executor, actor: Actor, action: string, config: { projectId?: string }) {
  if (action !== "add_comment") return {};
  if (!config.projectId) throw validationError("config.projectId", "Choose the project to comment on");
  const project = await trx.selectFrom("projects").select("id").where("id", "=", config.projectId).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!project) throw validationError("config.projectId", "No project with that id in this organization");
  return { projectId: project.id };
}

async function findOwn(trx: Executor, actor: Actor, id: string) {
  const row = await trx.selectFrom("incomingWebhooks").selectAll().where("id", "=", id).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!row) throw notFound("Incoming webhook");
  return row;
}

const audit = (trx: Executor, actor: Actor, action: string, targetId: string, metadata: Record<string, unknown>) =>
  writeAudit(trx, {
    orgId: actor.org.id,
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action,
    category: "integration",
    severity: action.endsWith(".deleted") ? "warning" : "info",
    targetType: "incoming_webhook",
    targetId,
    ip: actor.ip,
    userAgent: actor.userAgent,
    metadata,
  });

export async function listIncomingWebhooks(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage incoming webhooks");
  const rows = await db
    .selectFrom("incomingWebhooks as w")
    .leftJoin("users as u", "u.id", "w.createdById")
    .selectAll("w")
    .select("u.name as createdByName")
    .where("w.orgId", "=", actor.org.id)
    .orderBy("w.createdAt", "desc")
    .execute();
  return rows.map(present);
}

/** Creates an endpoint; `token` and `url` are returned here (and on rotation) only. */
export async function createIncomingWebhook(actor: Actor, input: CreateIncomingInput, baseUrl: string) {
  requireRole(actor, ADMIN_ROLES, "manage incoming webhooks");
  return db.transaction().execute(async (trx) => {
    const config = await checkConfig(trx, actor, input.action, input.config);
    const { token, tokenHash, tokenPrefix } = newToken();
    const now = nowIso();
    const row: IncomingWebhooksTable = {
      id: newId(),
      orgId: actor.org.id,
      createdById: actor.user.id,
      name: input.name,
      tokenHash,
      tokenPrefix,
      action: input.action,
      config: JSON.stringify(config),
      isActive: input.isActive ? 1 : 0,
      lastEventAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await trx.insertInto("incomingWebhooks").values(row).execute();
    await audit(trx, actor, "incoming_webhook.created", row.id, { name: row.name, action: row.action });
    return { ...present({ ...row, createdByName: actor.user.name }), token, url: incomingUrl(baseUrl, token) };
  });
}

export async function updateIncomingWebhook(actor: Actor, id: string, input: UpdateIncomingInput, baseUrl: string) {
  requireRole(actor, ADMIN_ROLES, "manage incoming webhooks");
  return db.transaction().execute(async (trx) => {
    const row = await findOwn(trx, actor, id);
    const next: Row = { ...row, updatedAt: nowIso() };
    if (input.name !== undefined) next.name = input.name;
    if (input.isActive !== undefined) next.isActive = input.isActive ? 1 : 0;
    if (input.config !== undefined) next.config = JSON.stringify(await checkConfig(trx, actor, row.action, input.config));
    const rotated = input.rotateToken ? newToken() : null;
    if (rotated) Object.assign(next, { tokenHash: rotated.tokenHash, tokenPrefix: rotated.tokenPrefix });
    const { createdByName: _, ...values } = next;
    await trx.updateTable("incomingWebhooks").set(values).where("id", "=", id).execute();
    await audit(trx, actor, "incoming_webhook.updated", id, { ...input, rotateToken: Boolean(rotated) });
    const creator = row.createdById ? await trx.selectFrom("users").select("name").where("id", "=", row.createdById).executeTakeFirst() : undefined;
    const out = present({ ...next, createdByName: creator?.name ?? null });
    return rotated ? { ...out, token: rotated.token, url: incomingUrl(baseUrl, rotated.token) } : out;
  });
}

export async function deleteIncomingWebhook(actor: Actor, id: string) {
  requireRole(actor, ADMIN_ROLES, "manage incoming webhooks");
  await db.transaction().execute(async (trx) => {
    const row = await findOwn(trx, actor, id);
    await trx.deleteFrom("incomingWebhooks").where("id", "=", id).execute();
    await audit(trx, actor, "incoming_webhook.deleted", id, { name: row.name });
  });
}

/** The last 50 events of an endpoint, newest first. */
export async function listIncomingEvents(actor: Actor, id: string) {
  requireRole(actor, ADMIN_ROLES, "manage incoming webhooks");
  await findOwn(db, actor, id);
  const rows = await db
    .selectFrom("incomingEvents")
    .selectAll()
    .where("endpointId", "=", id)
    .orderBy("createdAt", "desc")
    .orderBy(sql`rowid`, "desc")
    .limit(INCOMING_EVENT_LOG)
    .execute();
  return rows.map((e) => ({
    id: e.id,
    contentType: e.contentType,
    status: e.status,
    error: e.error,
    result: e.result ? (JSON.parse(e.result) as Record<string, unknown>) : null,
    payload: e.payload,
    createdAt: e.createdAt,
  }));
}
