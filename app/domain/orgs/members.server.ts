import type { Role } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError, forbidden, notFound, validationError } from "../errors";
import { emit } from "../events/events.server";

/** Members of the actor's organization, for pickers (assignee, collaborators). */
export async function listMembers(actor: Actor) {
  return db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["u.id", "u.name", "u.email", "m.role"])
    .where("m.orgId", "=", actor.org.id)
    .orderBy("u.name")
    .execute();
}

/** Members with roles and user data; `id` is the user id (used in member paths). */
export async function listOrgMembers(actor: Actor) {
  const rows = await db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["u.id", "u.name", "u.email", "u.emailVerifiedAt", "m.role", "m.createdAt as joinedAt"])
    .where("m.orgId", "=", actor.org.id)
    .orderBy("m.createdAt")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.id,
    role: r.role,
    joinedAt: r.joinedAt,
    isYou: r.id === actor.user.id,
    user: { id: r.id, name: r.name, email: r.email, emailVerified: r.emailVerifiedAt !== null },
  }));
}

async function memberOf(trx: Executor, orgId: string, userId: string) {
  const row = await trx
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["m.id", "m.role", "u.id as userId", "u.email"])
    .where("m.orgId", "=", orgId)
    .where("m.userId", "=", userId)
    .executeTakeFirst();
  if (!row) throw notFound("Member");
  return row;
}

async function ownerCount(trx: Executor, orgId: string) {
  const row = await trx
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("orgId", "=", orgId)
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const lastOwner = () => new AppError("OWNERSHIP_TRANSFER_REQUIRED", 409, "The organization needs an owner: transfer ownership first");

async function setRole(trx: Executor, actor: Actor, target: { id: string; userId: string; email: string; role: Role }, role: Role) {
  await trx.updateTable("memberships").set({ role }).where("id", "=", target.id).execute();
  await emit(trx, {
    orgId: actor.org.id,
    name: "member.role_changed",
    data: { userId: target.userId, email: target.email, role, previousRole: target.role },
    actorId: actor.user.id,
  });
  await writeAudit(trx, {
    ...auditActor(actor),
    action: "member.role_changed",
    category: "team",
    severity: role === "owner" || target.role === "owner" ? "warning" : "info",
    targetType: "user",
    targetId: target.userId,
    metadata: { before: { role: target.role }, after: { role } },
  });
}

/** Changes a member's role (admin, member, viewer). Admins cannot touch owners; the last owner stays. */
export async function changeMemberRole(actor: Actor, userId: string, role: Exclude<Role, "owner">) {
  requireRole(actor, ADMIN_ROLES, "change member roles");
  return db.transaction().execute(async (trx) => {
    const target = await memberOf(trx, actor.org.id, userId);
    if (target.role === "owner") {
      if (actor.role !== "owner") throw forbidden("Only an owner may change an owner's role");
      if ((await ownerCount(trx, actor.org.id)) <= 1) throw lastOwner();
    }
    if (target.role !== role) await setRole(trx, actor, target, role);
    return { id: userId, role };
  });
}

/**
 * Removes a member (admins and owners; anyone may leave). Their projects stay
 * in the organization; with `reassignTo` they pass to that member.
 */
export async function removeMember(actor: Actor, userId: string, reassignTo?: string) {
  const leaving = userId === actor.user.id;
  if (!leaving) requireRole(actor, ADMIN_ROLES, "remove members");
  return db.transaction().execute(async (trx) => {
    const target = await memberOf(trx, actor.org.id, userId);
    if (target.role === "owner") {
      if (actor.role !== "owner") throw forbidden("Only an owner may remove an owner");
      if ((await ownerCount(trx, actor.org.id)) <= 1) throw lastOwner();
    }
    if (reassignTo !== undefined) {
      const heir = await trx.selectFrom("memberships").select("userId").where("orgId", "=", actor.org.id).where("userId", "=", reassignTo).executeTakeFirst();
      if (!heir || reassignTo === userId) throw validationError("reassignTo", "Choose another member of the organization");
    }
    const orgProjects = trx.selectFrom("projects").select("id").where("orgId", "=", actor.org.id);
    let reassigned = 0;
    if (reassignTo) {
      const r = await trx
        .updateTable("projects")
        .set({ createdById: reassignTo })
        .where("orgId", "=", actor.org.id)
        .where("createdById", "=", userId)
        .executeTakeFirst();
      reassigned = Number(r.numUpdatedRows);
      await trx.updateTable("projects").set({ assignedToId: reassignTo }).where("orgId", "=", actor.org.id).where("assignedToId", "=", userId).execute();
    } else {
      await trx.updateTable("projects").set({ assignedToId: null }).where("orgId", "=", actor.org.id).where("assignedToId", "=", userId).execute();
    }
    await trx.deleteFrom("projectCollaborators").where("userId", "=", userId).where("projectId", "in", orgProjects).execute();
    await trx.deleteFrom("memberships").where("id", "=", target.id).execute();
    // Sessions in this organization move to another membership of the user, if any.
    const other = await trx.selectFrom("memberships").select("orgId").where("userId", "=", userId).orderBy("createdAt").executeTakeFirst();
    const sessions = trx.updateTable("sessions").where("userId", "=", userId).where("orgId", "=", actor.org.id);
    if (other) await sessions.set({ orgId: other.orgId }).execute();
    else await trx.deleteFrom("sessions").where("userId", "=", userId).where("orgId", "=", actor.org.id).execute();
    await emit(trx, {
      orgId: actor.org.id,
      name: "member.removed",
      data: { userId, email: target.email, role: target.role, reassignedTo: reassignTo ?? null },
      actorId: actor.user.id,
    });
    await writeAudit(trx, {
      ...auditActor(actor),
      action: leaving ? "member.left" : "member.removed",
      category: "team",
      severity: "warning",
      targetType: "user",
      targetId: userId,
      metadata: { email: target.email, role: target.role, reassignedTo: reassignTo ?? null, projectsReassigned: reassigned },
    });
    return { reassigned };
  });
}

/** The owner hands ownership to another member and becomes an admin. */
export async function transferOwnership(actor: Actor, userId: string) {
  requireRole(actor, ["owner"], "transfer ownership");
  if (userId === actor.user.id) throw validationError("userId", "Choose another member");
  return db.transaction().execute(async (trx) => {
    const target = await memberOf(trx, actor.org.id, userId);
    const self = await memberOf(trx, actor.org.id, actor.user.id);
    if (target.role !== "owner") await setRole(trx, actor, target, "owner");
    await setRole(trx, actor, self, "admin");
    return { ownerId: userId };
  });
}
