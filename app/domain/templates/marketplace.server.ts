import { sql } from "kysely";
import { db, type Executor } from "~/db.server";
import type { Actor } from "../actor";
import { notFound } from "../errors";
import { presentTemplate } from "./present";
import type { MarketplaceQuery } from "./templates.schema";

/**
 * The public marketplace: active templates with visibility `public` (system
 * and marketplace types). Anyone may browse; the system prompt stays
 * "[Protected]" unless the (optional) caller is a superadmin.
 */

function likeText(search: string) {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function publicTemplates(executor: Executor = db) {
  return executor.selectFrom("templates as t").where("t.visibility", "=", "public").where("t.isActive", "=", 1);
}

/** GET /api/marketplace-templates: filtered, sorted (popular, newest, name) and paged. */
export async function listMarketplaceTemplates(viewer: Actor | null, q: MarketplaceQuery) {
  let query = publicTemplates();
  if (q.category) query = query.where("t.category", "=", q.category);
  if (q.pricingTier) query = query.where("t.pricingTier", "=", q.pricingTier);
  if (q.featured !== undefined) query = query.where("t.isFeatured", "=", q.featured ? 1 : 0);
  if (q.search) {
    const like = likeText(q.search);
    query = query.where(
      sql<boolean>`(t.name LIKE ${like} ESCAPE '\\' OR t.description LIKE ${like} ESCAPE '\\' OR t.tags LIKE ${like} ESCAPE '\\' OR t.category LIKE ${like} ESCAPE '\\')`,
    );
  }
  let rows = query.selectAll();
  if (q.sort === "popular") rows = rows.orderBy("t.usageCount", "desc").orderBy("t.createdAt", "desc");
  else if (q.sort === "newest") rows = rows.orderBy("t.createdAt", "desc");
  else rows = rows.orderBy(sql`t.name COLLATE NOCASE`, "asc");
  const [templates, count] = await Promise.all([
    rows.orderBy("t.id").limit(q.limit).offset(q.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    templates: templates.map((t) => presentTemplate(t, viewer)),
    total: Number(count.n),
    limit: q.limit,
    offset: q.offset,
  };
}

/** A public, active template row, else 404. */
export async function publicTemplate(id: string, executor: Executor = db) {
  const t = await publicTemplates(executor).selectAll().where("t.id", "=", id).executeTakeFirst();
  if (!t) throw notFound("Template");
  return t;
}

/** GET /api/marketplace-templates/{templateId}. */
export async function getMarketplaceTemplate(viewer: Actor | null, id: string) {
  return presentTemplate(await publicTemplate(id), viewer);
}
