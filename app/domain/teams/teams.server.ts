import type { TeamsTable } from "#db/schema";
import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { notFound } from "../errors";
import type { TeamInput, TeamUpdate } from "../orgs/orgs.schema";

function publicTeam(t: TeamsTable) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    color: t.color,
    isArchived: t.isArchived === 1,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
export type PublicTeam = ReturnType<typeof publicTeam>;

/** Teams of the organization (any member may read); archived ones only on request. */
export async function listTeams(actor: Actor, includeArchived = false) {
  let q = db.selectFrom("teams").selectAll().where("orgId", "=", actor.org.id);
  if (!includeArchived) q = q.where("isArchived", "=", 0);
  const rows = await q.orderBy("isArchived").orderBy("name").execute();
  return rows.map(publicTeam);
}

async function findTeam(actor: Actor, teamId: string) {
  const team = await db.selectFrom("teams").selectAll().where("id", "=", teamId).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!team) throw notFound("Team");
  return team;
}

export async function getTeam(actor: Actor, teamId: string) {
  return publicTeam(await findTeam(actor, teamId));
}

export async function createTeam(actor: Actor, input: TeamInput) {
  requireRole(actor, ADMIN_ROLES, "manage teams");
  const now = nowIso();
  const row: TeamsTable = {
    id: newId(),
    orgId: actor.org.id,
    name: input.name,
    description: input.description ?? "",
    color: input.color ?? null,
    isArchived: 0,
    createdById: actor.user.id,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("teams").values(row).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "team.created",
      category: "team",
      targetType: "team",
      targetId: row.id,
      metadata: { name: row.name },
    });
  });
  return publicTeam(row);
}

export async function updateTeam(actor: Actor, teamId: string, input: TeamUpdate) {
  requireRole(actor, ADMIN_ROLES, "manage teams");
  const before = await findTeam(actor, teamId);
  const changes: Partial<TeamsTable> = { updatedAt: nowIso() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.color !== undefined) changes.color = input.color;
  if (input.isArchived !== undefined) changes.isArchived = input.isArchived ? 1 : 0;
  const after = { ...before, ...changes };
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("teams").set(changes).where("id", "=", teamId).execute();
    const action =
      input.isArchived === true && !before.isArchived ? "team.archived" : input.isArchived === false && before.isArchived ? "team.restored" : "team.updated";
    await writeAudit(trx, {
      ...auditActor(actor),
      action,
      category: "team",
      targetType: "team",
      targetId: teamId,
      metadata: { before: publicTeam(before), after: publicTeam(after) },
    });
  });
  return publicTeam(after);
}

export async function deleteTeam(actor: Actor, teamId: string) {
  requireRole(actor, ADMIN_ROLES, "manage teams");
  const team = await findTeam(actor, teamId);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("teams").where("id", "=", teamId).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "team.deleted",
      category: "team",
      severity: "warning",
      targetType: "team",
      targetId: teamId,
      metadata: { name: team.name },
    });
  });
}
