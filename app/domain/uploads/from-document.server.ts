import { db } from "~/db.server";
import type { Actor } from "../actor";
import { requireRole } from "../actor";
import { assertWithinLimit } from "../billing/limits.server";
import { uploadFile } from "../files/files.server";
import { savePrd } from "../prd/prd.server";
import { createProject } from "../projects/projects.server";
import { analyzeDocument } from "./documents.server";

/**
 * "Start a project from a document": the document is analysed (as POST
 * /api/upload/document), then a project is created named after its title
 * with the analysis summary as description; the extracted text becomes the
 * first PRD version (source `import`) and the original file is kept in the
 * project's files.
 */

/** Refusals that need no body: viewers, and organizations at their project limit. */
export async function assertCanStartFromDocument(actor: Actor) {
  requireRole(actor, ["owner", "admin", "member"], "create projects");
  await assertWithinLimit(db, actor.org, "projects");
}

export function draftFromDocument(title: string, text: string, filename: string) {
  const body = text.trim() || "_The document contained no readable text._";
  const heading = /^#\s+\S/.test(body) ? "" : `# ${title}\n\n`;
  return `${heading}${body}\n\n---\n\n_Imported from “${filename}”._\n`;
}

export async function createProjectFromDocument(actor: Actor, file: { filename: string; contentType?: string; data: Buffer }) {
  await assertCanStartFromDocument(actor);
  const doc = await analyzeDocument(actor, file);
  const name = doc.analysis.title.trim().slice(0, 200) || doc.filename;
  const project = await createProject(actor, { name, description: doc.analysis.summary.slice(0, 5000) });
  await savePrd(actor, project.id, { content: draftFromDocument(name, doc.text, doc.filename) }, { mode: "put", source: "import" });
  await uploadFile(actor, project.id, { filename: doc.filename, contentType: file.contentType, data: file.data });
  return { project, document: doc };
}
