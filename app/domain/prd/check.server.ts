import { db } from "~/db.server";
import { projectAccess, type Viewer } from "../projects/access.server";
import { cachedCheckOffThread } from "./check-cache.server";

/**
 * The rule-based PRD check of a project, against its template's sections:
 * instant, offline and free, shown beside the editor. `content` checks
 * unsaved text instead of the saved PRD. Results are cached by content
 * (./check-cache.server.ts); a long text is checked off the server's thread.
 */
export async function checkProjectPrd(viewer: Viewer, projectId: string, content?: string) {
  const { project } = await projectAccess(viewer, projectId);
  const [template, prd] = await Promise.all([
    project.templateId ? db.selectFrom("templates").select(["name", "sections"]).where("id", "=", project.templateId).executeTakeFirst() : undefined,
    content === undefined ? db.selectFrom("prds").select(["content", "currentVersionId"]).where("projectId", "=", project.id).executeTakeFirst() : undefined,
  ]);
  const sections = template ? (JSON.parse(template.sections) as string[]) : undefined;
  const text = content ?? prd?.content ?? "";
  return {
    check: await cachedCheckOffThread(text, sections?.length ? sections : undefined),
    template: template ? { name: template.name } : null,
    versionId: content === undefined ? (prd?.currentVersionId ?? null) : null,
  };
}
