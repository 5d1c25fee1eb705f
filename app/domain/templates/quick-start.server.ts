import type { Template } from "#db/schema";
import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, requireRole, isAdmin } from "../actor";
import { assertWithinLimit } from "../billing/limits.server";
import { createProject } from "../projects/projects.server";
import { publicTemplate } from "./marketplace.server";
import { presentTemplate } from "./present";
import type { FromMarketplaceInput, QuickStartInput } from "./submissions.schema";
import { writeVersion } from "./templates.server";

/**
 * Two ways to start a project in one call: quick-start (a name, optionally a
 * template and a use case) and from-marketplace (copy a public template into
 * the organization, then start a project from the copy).
 */

export const DEFAULT_INITIAL_QUESTION = "What problem are you trying to solve, and for whom?";

/** POST /api/projects/quick-start: the project plus the first question to ask. */
export async function quickStart(actor: Actor, input: QuickStartInput) {
  const project = await createProject(actor, {
    name: input.name,
    description: input.useCase,
    templateId: input.templateId ?? null,
  });
  let initialQuestion = DEFAULT_INITIAL_QUESTION;
  if (project.templateId) {
    const t = await db.selectFrom("templates").select("initialQuestion").where("id", "=", project.templateId).executeTakeFirst();
    if (t?.initialQuestion.trim()) initialQuestion = t.initialQuestion;
  }
  return { project, initialQuestion };
}

/**
 * POST /api/projects/from-marketplace. The copy is an organization template
 * for owners and admins, a personal one otherwise, and counts against the
 * plan's templates limit. A non-superadmin's copy does not carry the
 * protected system prompt (it holds "[Protected]"), so copying never reveals it.
 *
 * createProject runs its own transaction, so the copy (and the usage count)
 * commit first; if the project cannot be created, both are undone.
 */
export async function projectFromMarketplace(actor: Actor, input: FromMarketplaceInput) {
  requireRole(actor, ["owner", "admin", "member"], "create projects");
  const copy = await db.transaction().execute(async (trx) => {
    const source = await publicTemplate(input.templateId, trx);
    await assertWithinLimit(trx, actor.org, "projects");
    await assertWithinLimit(trx, actor.org, "templates");
    const type = isAdmin(actor) ? "organization" : "personal";
    const now = nowIso();
    const template: Template = {
      id: newId(),
      orgId: actor.org.id,
      userId: actor.user.id,
      name: source.name,
      description: source.description,
      category: source.category,
      templateType: type,
      visibility: type,
      // The copy keeps the real prompt (projects made from it need it) but it
      // stays hidden from the organization, as on the marketplace.
      systemPrompt: source.systemPrompt,
      promptProtected: 1,
      initialQuestion: source.initialQuestion,
      sections: source.sections,
      tags: source.tags,
      features: source.features,
      isActive: 1,
      isFeatured: 0,
      pricingTier: "free",
      usageCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    await trx.insertInto("templates").values(template).execute();
    await writeVersion(trx, template, actor.user.id, `Copied from the marketplace template "${source.name}"`);
    await trx
      .updateTable("templates")
      .set((eb) => ({ usageCount: eb("usageCount", "+", 1) }))
      .where("id", "=", source.id)
      .execute();
    return { template, sourceId: source.id };
  });
  try {
    const project = await createProject(actor, { name: input.name ?? copy.template.name, templateId: copy.template.id });
    const template = { ...copy.template, usageCount: copy.template.usageCount + 1 };
    return { project, template: presentTemplate(template, actor) };
  } catch (error) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("templates").where("id", "=", copy.template.id).execute();
      await trx
        .updateTable("templates")
        .set((eb) => ({ usageCount: eb("usageCount", "-", 1) }))
        .where("id", "=", copy.sourceId)
        .where("usageCount", ">", 0)
        .execute();
    });
    throw error;
  }
}
