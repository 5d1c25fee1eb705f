import { db } from "~/db.server";
import { projectAccess, type Viewer } from "../projects/access.server";
import { userStoriesSection } from "./prd-stories";

/**
 * "Stories in this PRD" on the Send to tracker page: the Markdown of the
 * current PRD's "User stories" section (H2, with its ### stories), or null
 * when the PRD has none or the project has no PRD yet. Anyone who can read
 * the project may ask; another organization's project is a 404.
 */
export async function prdStories(viewer: Viewer, projectId: string): Promise<string | null> {
  const { project } = await projectAccess(viewer, projectId);
  const prd = await db.selectFrom("prds").select("content").where("projectId", "=", project.id).executeTakeFirst();
  return prd ? userStoriesSection(prd.content) : null;
}
