import { generatePrd } from "~/domain/builder/generate.server";
import { generatePrdSchema } from "~/domain/builder/builder.schema";
import { createVersion, getPrd, savePrd } from "~/domain/prd/prd.server";
import { createVersionSchema, patchPrdSchema } from "~/domain/prd/prd.schema";
import { createProject, setProjectStatus } from "~/domain/projects/projects.server";
import { createProjectSchema } from "~/domain/projects/projects.schema";
import { createTemplate } from "~/domain/templates/templates.server";
import { createTemplateSchema } from "~/domain/templates/templates.schema";
import type { Actors } from "./accounts";
import { HARDWARE_TEMPLATE } from "./people";
import { interview } from "./interview";
import { DEMO_PROJECTS, type DemoProjectKey } from "./projects";

/**
 * The projects of the demo organization: each created by its author,
 * interviewed by the builder, its PRD generated and revised, then moved to
 * its stage. Everything goes through the same domain functions as the UI
 * and the API, so versions, activity, search and events are all consistent.
 */

export type ProjectIds = Record<DemoProjectKey, string>;

/** A reviewer's edit after generation (a second version), then a named snapshot (a third). */
const REVISIONS: Partial<Record<DemoProjectKey, { note: string; label: string }>> = {
  battery: {
    note: "GA on every Operations plan site after the 4-week beta at 5 sites; the weekly e-mail summary went out from week one.",
    label: "Shipped to all sites",
  },
  pickPath: {
    note: "Shadow mode will run at Rotterdam and Columbus; the per-zone switch is available to operations leads from day one.",
    label: "Sent for approval",
  },
  teleop: {
    note: "Rotterdam confirmed as the pilot site; the customer's health and safety officer joins the safety review.",
    label: "Sent to safety review",
  },
};

export async function createOrgTemplate(actors: Actors) {
  const template = await createTemplate(actors.marcus, createTemplateSchema.parse({ ...HARDWARE_TEMPLATE, templateType: "organization" }));
  return template.id;
}

export async function buildProjects(actors: Actors, orgTemplateId: string): Promise<ProjectIds> {
  const ids: Partial<ProjectIds> = {};
  for (const spec of DEMO_PROJECTS) {
    const author = actors[spec.createdBy];
    const project = await createProject(
      author,
      createProjectSchema.parse({
        name: spec.name,
        description: spec.description,
        templateId: spec.template === "org" ? orgTemplateId : spec.template,
        priority: spec.priority,
        assignedToId: actors[spec.assignedTo].user.id,
      }),
    );
    await interview(author, project.id, spec.answers);
    if (spec.generate) {
      await generatePrd(author, generatePrdSchema.parse({ projectId: project.id, style: "comprehensive" }));
      const revision = REVISIONS[spec.key];
      if (revision) {
        const editor = actors[spec.assignedTo];
        const current = await getPrd(editor, project.id);
        const content = `${current.content.trimEnd()}\n\n## Decision log\n\n- ${revision.note}\n`;
        await savePrd(editor, project.id, patchPrdSchema.parse({ content, baseVersionId: current.versionId ?? undefined }), { mode: "patch", source: "edit" });
        await createVersion(editor, project.id, createVersionSchema.parse({ label: revision.label }));
      }
    }
    for (const status of spec.path) await setProjectStatus(author, project.id, status);
    ids[spec.key] = project.id;
  }
  return ids as ProjectIds;
}
