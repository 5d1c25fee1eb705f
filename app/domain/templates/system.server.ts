import type { Template } from "#db/schema";
import { SYSTEM_TEMPLATES } from "#db/seed/system-templates";
import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { writeVersion } from "./templates.server";

/**
 * Makes sure the built-in system templates exist. Idempotent: a template
 * already present (perhaps edited by a superadmin) is left as it is.
 * Returns the ids it inserted.
 */
export async function ensureSystemTemplates() {
  const existing = new Set((await db.selectFrom("templates").select("id").where("templateType", "=", "system").execute()).map((r) => r.id));
  const inserted: string[] = [];
  await db.transaction().execute(async (trx) => {
    for (const seed of SYSTEM_TEMPLATES) {
      if (existing.has(seed.id)) continue;
      const now = nowIso();
      const template: Template = {
        id: seed.id,
        orgId: null,
        userId: null,
        name: seed.name,
        description: seed.description,
        category: seed.category,
        templateType: "system",
        visibility: "public",
        systemPrompt: seed.systemPrompt,
        initialQuestion: seed.initialQuestion,
        sections: JSON.stringify(seed.sections),
        tags: JSON.stringify(seed.tags),
        features: JSON.stringify(seed.features),
        isActive: 1,
        isFeatured: seed.isFeatured ? 1 : 0,
        pricingTier: seed.pricingTier,
        usageCount: 0,
        promptProtected: 0,
        createdAt: now,
        updatedAt: now,
      };
      await trx.insertInto("templates").values(template).execute();
      await writeVersion(trx, template, null, "Built-in template");
      inserted.push(seed.id);
    }
  });
  return inserted;
}
