import type { Severity } from "#db/schema";
import type { Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";

export interface AuditEntry {
  orgId: string | null;
  actorId?: string | null;
  actorEmail?: string | null;
  action: string;
  category: "auth" | "project" | "team" | "billing" | "security" | "settings" | "api" | string;
  severity?: Severity;
  targetType?: string;
  targetId?: string;
  ip?: string | null;
  userAgent?: string | null;
  metadata?: Record<string, unknown>;
}

/** Appends to the audit log. Pass the transaction of the change it records. */
export async function writeAudit(db: Executor, entry: AuditEntry) {
  await db
    .insertInto("auditLogs")
    .values({
      id: newId(),
      orgId: entry.orgId,
      actorId: entry.actorId ?? null,
      actorEmail: entry.actorEmail ?? null,
      action: entry.action,
      category: entry.category,
      severity: entry.severity ?? "info",
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      ip: entry.ip ?? null,
      userAgent: entry.userAgent ?? null,
      metadata: JSON.stringify(entry.metadata ?? {}),
      createdAt: nowIso(),
    })
    .execute();
}

/** Writes one audit row into every organization the user belongs to. */
export async function auditForUser(db: Executor, userId: string, entry: Omit<AuditEntry, "orgId">) {
  const orgs = await db.selectFrom("memberships").select("orgId").where("userId", "=", userId).execute();
  for (const { orgId } of orgs) await writeAudit(db, { ...entry, orgId, actorId: entry.actorId ?? userId });
}

/** The actor fields of an audit entry for a signed-in caller. */
export function auditActor(actor: { org: { id: string }; user: { id: string; email: string }; ip: string | null; userAgent: string | null }) {
  return {
    orgId: actor.org.id,
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    ip: actor.ip,
    userAgent: actor.userAgent,
  };
}
