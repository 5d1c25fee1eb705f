import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError, notFound, validationError } from "../errors";
import { projectAccess, requireManage } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import type { CreateLinkInput, LinkType } from "./collaboration.schema";

/**
 * Links from a project to a web address (designs, tickets, documents) or to
 * another project of the same organization (relates to, blocks, depends on).
 */

function linkQuery(executor: Executor, projectId: string) {
  return executor
    .selectFrom("projectLinks as l")
    .leftJoin("projects as t", "t.id", "l.targetProjectId")
    .leftJoin("users as u", "u.id", "l.createdById")
    .selectAll("l")
    .select(["t.name as targetName", "t.status as targetStatus", "u.name as createdByName"])
    .where("l.projectId", "=", projectId);
}
type Row = Awaited<ReturnType<ReturnType<typeof linkQuery>["executeTakeFirstOrThrow"]>>;

const present = (r: Row, targetVisible: boolean) => ({
  id: r.id,
  title: r.title,
  url: r.url,
  targetProjectId: r.targetProjectId,
  linkType: r.linkType,
  target: r.targetProjectId && targetVisible ? { id: r.targetProjectId, name: r.targetName!, status: r.targetStatus! } : null,
  createdBy: r.createdById ? { id: r.createdById, name: r.createdByName } : null,
  createdAt: r.createdAt,
});
export type LinkOut = ReturnType<typeof present>;

/** Whether the actor may read a linked project (a viewer only sees the ones shared with them). */
async function canRead(actor: Actor, projectId: string) {
  try {
    await projectAccess(actor, projectId);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return false;
    throw error;
  }
}

export async function listLinks(actor: Actor, projectId: string) {
  const { project } = await projectAccess(actor, projectId);
  const rows = await linkQuery(db, project.id).orderBy("l.createdAt", "asc").orderBy("l.id", "asc").execute();
  const visible = new Map<string, boolean>();
  for (const r of rows) {
    if (r.targetProjectId && !visible.has(r.targetProjectId)) {
      visible.set(r.targetProjectId, await canRead(actor, r.targetProjectId));
    }
  }
  return rows.map((r) => present(r, r.targetProjectId ? visible.get(r.targetProjectId)! : false));
}

export async function createLink(actor: Actor, projectId: string, input: CreateLinkInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    let title = input.title;
    let linkType: LinkType;
    if (input.targetProjectId) {
      if (input.targetProjectId === project.id) throw validationError("targetProjectId", "A project cannot link to itself");
      const target = await trx
        .selectFrom("projects")
        .select(["id", "name"])
        .where("id", "=", input.targetProjectId)
        .where("orgId", "=", project.orgId)
        .executeTakeFirst();
      if (!target) throw validationError("targetProjectId", "No project of this organization has that id");
      title ??= target.name;
      linkType = input.linkType ?? "relates_to";
    } else {
      title ??= input.url!;
      linkType = input.linkType ?? "reference";
    }
    const link = {
      id: newId(),
      projectId: project.id,
      title,
      url: input.url ?? null,
      targetProjectId: input.targetProjectId ?? null,
      linkType,
      createdById: actor.user.id,
      createdAt: nowIso(),
    };
    await trx.insertInto("projectLinks").values(link).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "link.created",
      summary: `${actor.user.name} linked “${title}” (${linkType.replace("_", " ")})`,
      data: { linkId: link.id, url: link.url, targetProjectId: link.targetProjectId, linkType },
    });
    return present(await linkQuery(trx, project.id).where("l.id", "=", link.id).executeTakeFirstOrThrow(), true);
  });
}

export async function deleteLink(actor: Actor, projectId: string, linkId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const row = await trx.selectFrom("projectLinks").select(["id", "title"]).where("id", "=", linkId).where("projectId", "=", project.id).executeTakeFirst();
    if (!row) throw notFound("Link");
    await trx.deleteFrom("projectLinks").where("id", "=", row.id).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "link.deleted",
      summary: `${actor.user.name} removed the link “${row.title}”`,
      data: { linkId: row.id },
    });
  });
}
