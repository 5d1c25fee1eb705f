import { db } from "~/db.server";
import type { Actor } from "../actor";
import { readableProjects } from "../projects/access.server";
import { listTemplates } from "./templates.server";

/**
 * The choices of the pages' template filters: what a filter select lists,
 * and so which values a page accepts from its address.
 */

export interface TemplateChoice {
  id: string;
  name: string;
}

/**
 * Templates to filter the project list by (`GET /api/projects?templateId=`):
 * those used by projects the actor may read (even when the template was
 * since deactivated, or is a colleague's personal one, as the project's
 * detail shows it), then the active templates the actor may use. By name.
 */
export async function projectTemplateChoices(actor: Actor): Promise<TemplateChoice[]> {
  const [used, available] = await Promise.all([
    db
      .selectFrom("projects as p")
      .innerJoin("templates as t", "t.id", "p.templateId")
      .where(readableProjects(actor))
      .select(["t.id", "t.name"])
      .distinct()
      .execute(),
    listTemplates(actor, {}),
  ]);
  const byId = new Map<string, TemplateChoice>();
  for (const t of [...used, ...available]) if (!byId.has(t.id)) byId.set(t.id, { id: t.id, name: t.name });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** The pricing tiers of the templates listed on the marketplace (active and public), A–Z. */
export async function marketplacePricingTiers(): Promise<string[]> {
  const rows = await db
    .selectFrom("templates as t")
    .where("t.visibility", "=", "public")
    .where("t.isActive", "=", 1)
    .select("t.pricingTier")
    .distinct()
    .orderBy("t.pricingTier")
    .execute();
  return rows.map((r) => r.pricingTier);
}
