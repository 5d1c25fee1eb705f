import { z } from "zod/v4";
import { db } from "~/db.server";
import { logger } from "~/utils/log.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { requireScope } from "../api-keys/scopes";
import { writeAudit } from "../audit/audit.server";
import { validationError } from "../errors";
import { emit } from "../events/events.server";

/** The web UI asks for the organization's name typed back before either irreversible operation. */
export const confirmNameSchema = z.object({
  confirmName: z.string({ error: "Type the organization's name to confirm" }).trim().max(200),
});

/**
 * The API's body (docs/administration.md: no body): `confirmName` is optional, and
 * checked only when sent, so a script can add the same safety catch.
 */
export const dangerApiSchema = z.object({
  confirmName: z.string({ error: "confirmName must be a string" }).trim().max(200).optional(),
});

/** A name given must match; none given means the caller confirmed otherwise (the API). */
function assertConfirmed(actor: Actor, confirmName: string | undefined) {
  if (confirmName !== undefined && confirmName.trim() !== actor.org.name.trim()) {
    throw validationError("confirmName", "The name does not match the organization's name");
  }
}

/**
 * Deletes every project of the organization (with PRDs, versions, files, comments
 * and shares through their FKs) in one transaction: one audit entry and one
 * `project.deleted` event per project.
 */
export async function deleteAllProjects(actor: Actor, confirmName?: string) {
  requireRole(actor, ADMIN_ROLES, "delete all projects");
  requireScope(actor, "admin");
  assertConfirmed(actor, confirmName);
  return db.transaction().execute(async (trx) => {
    const projects = await trx.selectFrom("projects").select(["id", "name"]).where("orgId", "=", actor.org.id).execute();
    await trx.deleteFrom("projects").where("orgId", "=", actor.org.id).execute();
    await writeAudit(trx, {
      orgId: actor.org.id,
      actorId: actor.user.id,
      actorEmail: actor.user.email,
      action: "project.bulk_deleted",
      category: "project",
      severity: "critical",
      targetType: "organization",
      targetId: actor.org.id,
      ip: actor.ip,
      userAgent: actor.userAgent,
      metadata: { count: projects.length },
    });
    for (const p of projects) {
      await emit(trx, { orgId: actor.org.id, name: "project.deleted", data: { projectId: p.id, name: p.name, bulk: true }, actorId: actor.user.id });
    }
    return { deleted: projects.length };
  });
}

/**
 * Deletes the organization and everything it owns (Owner only), in one transaction.
 * Its audit rows survive with orgId null (FK SET NULL), plus a platform-level entry.
 * Members' sessions in it move to another organization of theirs, or end.
 */
export async function deleteOrganization(actor: Actor, confirmName?: string) {
  requireRole(actor, ["owner"], "delete the organization");
  requireScope(actor, "admin");
  assertConfirmed(actor, confirmName);
  const org = actor.org;
  const result = await db.transaction().execute(async (trx) => {
    const [members, projects] = await Promise.all([
      trx.selectFrom("memberships").select(["userId"]).where("orgId", "=", org.id).execute(),
      trx
        .selectFrom("projects")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("orgId", "=", org.id)
        .executeTakeFirstOrThrow(),
    ]);
    const sessions = await trx.selectFrom("sessions").select(["id", "userId"]).where("orgId", "=", org.id).execute();
    let moved = 0;
    for (const s of sessions) {
      const other = await trx
        .selectFrom("memberships")
        .select("orgId")
        .where("userId", "=", s.userId)
        .where("orgId", "!=", org.id)
        .orderBy("createdAt")
        .executeTakeFirst();
      if (other) {
        await trx.updateTable("sessions").set({ orgId: other.orgId }).where("id", "=", s.id).execute();
        moved++;
      } else {
        await trx.deleteFrom("sessions").where("id", "=", s.id).execute();
      }
    }
    const summary = { orgId: org.id, name: org.name, plan: org.plan, members: members.length, projects: Number(projects.n) };
    await trx.deleteFrom("organizations").where("id", "=", org.id).execute();
    // Platform-level entry (orgId null): it outlives the organization.
    await writeAudit(trx, {
      orgId: null,
      actorId: actor.user.id,
      actorEmail: actor.user.email,
      action: "organization.deleted",
      category: "settings",
      severity: "critical",
      targetType: "organization",
      targetId: org.id,
      ip: actor.ip,
      userAgent: actor.userAgent,
      metadata: summary,
    });
    return { ...summary, sessionsMoved: moved, sessionsEnded: sessions.length - moved };
  });
  logger.info("[admin] organization deleted", { requestId: actor.requestId, orgName: org.name, by: actor.user.email, ...result, orgId: org.id });
  return result;
}
