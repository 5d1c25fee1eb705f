import type { Project } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, requireRole } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { assertWithinLimit } from "../billing/limits.server";
import { requireApprovalOrProceed } from "../approvals/requests.server";
import { forbidden, notFound, validationError } from "../errors";
import { emit } from "../events/events.server";
import { indexProject } from "../search/search-index.server";
import { canUse } from "../templates/templates.server";
import { listActivity, recordChange, statusHistory } from "./activity.server";
import { permissions, projectAccess, requireEdit, type Viewer } from "./access.server";
import { assertRevision } from "./conflict.server";
import { presentProject, projectDetail } from "./present.server";
import { parseStatus } from "./status";
import { type CreateProjectInput, type ProjectStatus, priorityRank, STATUS_LABELS, statusRank, type UpdateProjectInput } from "./projects.schema";

export { listProjects } from "./list.server";
export { parseStatus };

async function assertMember(executor: Executor, orgId: string, userId: string, field: string) {
  const m = await executor.selectFrom("memberships").select("id").where("orgId", "=", orgId).where("userId", "=", userId).executeTakeFirst();
  if (!m) throw validationError(field, "No member of this organization has that id");
}

/** The template must be one the actor may use (templates.server decides). */
async function assertUsableTemplate(executor: Executor, actor: Actor, templateId: string) {
  const t = await executor.selectFrom("templates").selectAll().where("id", "=", templateId).executeTakeFirst();
  if (!t || !canUse(actor, t)) throw validationError("templateId", "No template with that id is available to you");
}

export async function createProject(actor: Actor, input: CreateProjectInput) {
  requireRole(actor, ["owner", "admin", "member"], "create projects");
  const status = input.status ? parseStatus(input.status) : "DRAFT";
  const priority = input.priority ?? null;
  const now = nowIso();
  const project = {
    id: newId(),
    orgId: actor.org.id,
    name: input.name,
    description: input.description ?? "",
    status,
    statusRank: statusRank(status),
    priority,
    priorityRank: priorityRank(priority),
    templateId: input.templateId ?? null,
    assignedToId: input.assignedToId ?? null,
    createdById: actor.user.id,
    revision: 1,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction().execute(async (trx) => {
    await assertWithinLimit(trx, actor.org, "projects");
    if (project.templateId) await assertUsableTemplate(trx, actor, project.templateId);
    if (project.assignedToId) await assertMember(trx, actor.org.id, project.assignedToId, "assignedToId");
    await trx.insertInto("projects").values(project).execute();
    await trx
      .insertInto("projectStatusHistory")
      .values({ id: newId(), projectId: project.id, fromStatus: null, toStatus: status, changedById: actor.user.id, createdAt: now })
      .execute();
    if (project.templateId) {
      await trx
        .updateTable("templates")
        .set((eb) => ({ usageCount: eb("usageCount", "+", 1) }))
        .where("id", "=", project.templateId)
        .execute();
    }
    await indexProject(trx, project.id);
    await recordChange(trx, {
      project,
      actor,
      action: "project.created",
      summary: `${actor.user.name} created the project`,
      data: { name: project.name, status },
      event: "project.created",
    });
  });
  return getProject(actor, project.id);
}

export async function getProject(viewer: Viewer, projectId: string) {
  const access = await projectAccess(viewer, projectId);
  return { ...(await projectDetail(access.project, viewer)), permissions: permissions(access) };
}

type Changes = Partial<Pick<Project, "name" | "description" | "status" | "priority" | "assignedToId" | "templateId">>;

/**
 * Applies changes to a project in one transaction: revision check, history,
 * activity and events. Shared by update, status and assign.
 */
async function applyChanges(actor: Actor, projectId: string, changes: Changes, expectedRevision?: number) {
  if (changes.status === "APPROVED") {
    // An active prd_publish approval workflow holds the whole change (approvals area).
    const { project } = await requireEdit(actor, projectId);
    if (project.status !== "APPROVED") {
      await requireApprovalOrProceed(actor, "prd_publish", { type: "project", id: project.id, label: project.name, payload: { changes } });
    }
  }
  const updated = await db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    if (expectedRevision !== undefined) await assertRevision(project, expectedRevision, actor);
    return changeProject(trx, actor, project, changes);
  });
  return { ...(await projectDetail(updated, actor)), permissions: permissions(await projectAccess(actor, projectId)) };
}

/** Runs a change held by an approval workflow, once approved, in the decision's transaction. */
export async function applyApprovedChanges(trx: Executor, actor: Actor, projectId: string, changes: Changes) {
  const project = await trx.selectFrom("projects").selectAll().where("id", "=", projectId).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!project) throw notFound("Project");
  await changeProject(trx, actor, project, changes);
}

async function changeProject(trx: Executor, actor: Actor, project: Project, changes: Changes) {
  {
    const diff: Changes = {};
    for (const [key, value] of Object.entries(changes) as [keyof Changes, string | null][]) {
      if (value !== undefined && project[key] !== value) (diff as Record<string, unknown>)[key] = value;
    }
    if (Object.keys(diff).length === 0) return project;
    if (diff.assignedToId) await assertMember(trx, project.orgId, diff.assignedToId, "assignedToId");
    if (diff.templateId) await assertUsableTemplate(trx, actor, diff.templateId);
    const now = nowIso();
    const next = {
      ...diff,
      ...(diff.status ? { statusRank: statusRank(diff.status as ProjectStatus) } : {}),
      ...("priority" in diff ? { priorityRank: priorityRank(diff.priority as never) } : {}),
      revision: project.revision + 1,
      updatedAt: now,
    };
    await trx.updateTable("projects").set(next).where("id", "=", project.id).execute();
    if (diff.status) {
      await trx
        .insertInto("projectStatusHistory")
        .values({
          id: newId(),
          projectId: project.id,
          fromStatus: project.status,
          toStatus: diff.status,
          changedById: actor.user.id,
          createdAt: now,
        })
        .execute();
      await recordChange(trx, {
        project,
        actor,
        action: "project.status_changed",
        summary: `${actor.user.name} moved the project from ${label(project.status)} to ${label(diff.status)}`,
        data: { from: project.status, to: diff.status },
        event: "project.status_changed",
      });
    }
    if (diff.name !== undefined || diff.description !== undefined) await indexProject(trx, project.id);
    const fields = Object.keys(diff);
    await recordChange(trx, {
      project,
      actor,
      action: "project.updated",
      summary: `${actor.user.name} changed ${fields.map(fieldLabel).join(", ")}`,
      data: { changes: Object.fromEntries(fields.map((f) => [f, { from: project[f as keyof Changes], to: diff[f as keyof Changes] }])) },
      event: "project.updated",
    });
    return { ...project, ...next } as Project;
  }
}

const label = (s: string) => STATUS_LABELS[s as ProjectStatus] ?? s;
const fieldLabel = (f: string) => ({ assignedToId: "the assignee", templateId: "the template", status: "the status" })[f] ?? `the ${f}`;

export async function updateProject(actor: Actor, projectId: string, input: UpdateProjectInput, ifMatch?: number) {
  const { baseRevision, ...rest } = input;
  const changes: Changes = { ...rest, status: rest.status ? parseStatus(rest.status) : undefined };
  return applyChanges(actor, projectId, changes, ifMatch ?? baseRevision);
}

export async function setProjectStatus(actor: Actor, projectId: string, status: string) {
  return applyChanges(actor, projectId, { status: parseStatus(status) });
}

export async function assignProject(actor: Actor, projectId: string, assignedToId: string | null) {
  return applyChanges(actor, projectId, { assignedToId });
}

/** Deletes the project with its PRD, versions, files, comments and share in one transaction. */
export async function deleteProject(actor: Actor, projectId: string) {
  const checked = await projectAccess(actor, projectId);
  if (!checked.canDelete) throw forbidden("Only its creator or an admin may delete this project");
  await requireApprovalOrProceed(actor, "project_delete", { type: "project", id: projectId, label: checked.project.name });
  await db.transaction().execute(async (trx) => {
    const access = await projectAccess(actor, projectId, trx);
    if (!access.canDelete) throw forbidden("Only its creator or an admin may delete this project");
    await deleteProjectIn(trx, actor, access.project);
  });
}

/** Deletes in the caller's transaction; also the executor of an approved project_delete request. */
export async function deleteProjectIn(trx: Executor, actor: Actor, project: Project) {
  await trx.deleteFrom("projects").where("id", "=", project.id).execute();
  await writeAudit(trx, {
    orgId: project.orgId,
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "project.deleted",
    category: "project",
    severity: "warning",
    targetType: "project",
    targetId: project.id,
    ip: actor.ip,
    userAgent: actor.userAgent,
    metadata: { name: project.name },
  });
  await emit(trx, {
    orgId: project.orgId,
    name: "project.deleted",
    data: { projectId: project.id, name: project.name },
    actorId: actor.user.id,
  });
}

export { presentProject };

export async function projectHistory(viewer: Viewer, projectId: string) {
  await projectAccess(viewer, projectId);
  return statusHistory(projectId);
}

export async function projectActivity(viewer: Viewer, projectId: string, page: { limit: number; offset: number }) {
  await projectAccess(viewer, projectId);
  return listActivity(projectId, page);
}
