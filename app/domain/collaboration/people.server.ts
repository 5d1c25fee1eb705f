import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError, notFound, validationError } from "../errors";
import { projectAccess, requireManage } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import { normalizeEmail } from "../users/users.server";
import type { AddCollaboratorInput } from "./collaboration.schema";

/**
 * Project collaborators: members of the project's organization given a role
 * on one project (editor, commenter, viewer). What each role may do is
 * decided by access.server.ts.
 */

function collaboratorQuery(executor: Executor, projectId: string) {
  return executor
    .selectFrom("projectCollaborators as c")
    .innerJoin("users as u", "u.id", "c.userId")
    .leftJoin("users as a", "a.id", "c.addedById")
    .select(["c.id", "c.role", "c.createdAt", "c.userId", "c.addedById", "u.name as userName", "u.email as userEmail", "a.name as addedByName"])
    .where("c.projectId", "=", projectId);
}
type Row = Awaited<ReturnType<ReturnType<typeof collaboratorQuery>["executeTakeFirstOrThrow"]>>;

const present = (r: Row) => ({
  id: r.id,
  role: r.role,
  user: { id: r.userId, name: r.userName, email: r.userEmail },
  addedBy: r.addedById ? { id: r.addedById, name: r.addedByName } : null,
  createdAt: r.createdAt,
});
export type CollaboratorOut = ReturnType<typeof present>;

export async function listCollaborators(actor: Actor, projectId: string) {
  await projectAccess(actor, projectId);
  const rows = await collaboratorQuery(db, projectId).orderBy("c.createdAt", "asc").orderBy("c.id", "asc").execute();
  return rows.map(present);
}

/** Adds an existing member of the organization by e-mail. Already a collaborator: 409 CONFLICT. */
export async function addCollaborator(actor: Actor, projectId: string, input: AddCollaboratorInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const user = await trx
      .selectFrom("users as u")
      .innerJoin("memberships as m", "m.userId", "u.id")
      .select(["u.id", "u.name", "u.email"])
      .where("m.orgId", "=", project.orgId)
      .where("u.email", "=", normalizeEmail(input.email))
      .executeTakeFirst();
    if (!user) {
      throw validationError("email", "No member of this organization has that e-mail address; invite them first");
    }
    const existing = await trx
      .selectFrom("projectCollaborators")
      .select(["id", "role"])
      .where("projectId", "=", project.id)
      .where("userId", "=", user.id)
      .executeTakeFirst();
    if (existing) {
      throw new AppError("CONFLICT", 409, `${user.name} already collaborates on this project as ${existing.role}`, {
        extra: { collaboratorId: existing.id },
      });
    }
    const id = newId();
    await trx
      .insertInto("projectCollaborators")
      .values({ id, projectId: project.id, userId: user.id, role: input.role, addedById: actor.user.id, createdAt: nowIso() })
      .execute();
    await recordChange(trx, {
      project,
      actor,
      action: "collaborator.added",
      summary: `${actor.user.name} added ${user.name} as ${input.role}`,
      data: { collaboratorId: id, userId: user.id, role: input.role },
    });
    return present(await collaboratorQuery(trx, project.id).where("c.id", "=", id).executeTakeFirstOrThrow());
  });
}

/** Those who manage the project remove anyone; a collaborator may also remove themselves (leave). */
export async function removeCollaborator(actor: Actor, projectId: string, collaboratorId: string) {
  await db.transaction().execute(async (trx) => {
    const access = await projectAccess(actor, projectId, trx);
    const row = await collaboratorQuery(trx, access.project.id).where("c.id", "=", collaboratorId).executeTakeFirst();
    const leaving = row?.userId === actor.user.id;
    if (!leaving) await requireManage(actor, projectId, trx);
    if (!row) throw notFound("Collaborator");
    await trx.deleteFrom("projectCollaborators").where("id", "=", row.id).execute();
    await recordChange(trx, {
      project: access.project,
      actor,
      action: "collaborator.removed",
      summary: leaving ? `${actor.user.name} left the project` : `${actor.user.name} removed ${row.userName}`,
      data: { collaboratorId: row.id, userId: row.userId, role: row.role },
    });
  });
}
