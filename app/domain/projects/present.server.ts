import type { Project } from "#db/schema";
import { db } from "~/db.server";
import { isShareViewer, type Viewer } from "./access.server";

/** The public shape of a project (list items and the base of the detail). */
export function presentProject(p: Project) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    status: p.status,
    priority: p.priority,
    templateId: p.templateId,
    assignedToId: p.assignedToId,
    createdById: p.createdById,
    revision: p.revision,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
export type ProjectOut = ReturnType<typeof presentProject>;

/** Full details: template, assignee, creator and PRD summary. */
export async function projectDetail(p: Project, viewer: Viewer) {
  const [template, assignee, createdBy, prd] = await Promise.all([
    p.templateId
      ? db
          .selectFrom("templates")
          .select(["id", "name", "category", "templateType", "description", "sections", "initialQuestion"])
          .where("id", "=", p.templateId)
          .executeTakeFirst()
      : undefined,
    p.assignedToId ? db.selectFrom("users").select(["id", "name", "email"]).where("id", "=", p.assignedToId).executeTakeFirst() : undefined,
    p.createdById ? db.selectFrom("users").select(["id", "name"]).where("id", "=", p.createdById).executeTakeFirst() : undefined,
    db
      .selectFrom("prds as d")
      .leftJoin("prdVersions as v", "v.id", "d.currentVersionId")
      .select(["d.updatedAt", "d.style", "v.number"])
      .where("d.projectId", "=", p.id)
      .executeTakeFirst(),
  ]);
  const hideEmail = isShareViewer(viewer);
  return {
    ...presentProject(p),
    template: template ? { ...template, sections: JSON.parse(template.sections) as string[] } : null,
    assignee: assignee ? { id: assignee.id, name: assignee.name, ...(hideEmail ? {} : { email: assignee.email }) } : null,
    createdBy: createdBy ?? null,
    prd: prd ? { versionNumber: prd.number ?? null, style: prd.style, updatedAt: prd.updatedAt } : null,
  };
}
