import { sql } from "kysely";
import type { Template } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, isAdmin, requireWriter } from "../actor";
import { assertWithinLimit } from "../billing/limits.server";
import { forbidden, notFound, validationError } from "../errors";
import { isPlatformTemplate, presentTemplate, PROTECTED, SNAPSHOT_FIELDS } from "./present";
import type { AdminTemplatesQuery, CreateTemplateInput, ListTemplatesQuery, TemplateType, UpdateTemplateInput } from "./templates.schema";

/**
 * Templates: personal (one user's), organization (every member's), system
 * (seeded) and marketplace (approved submissions). System and marketplace
 * templates are public, their system prompt is "[Protected]" for everyone
 * but superadmins, and only superadmins change them.
 */

/** SQL condition: templates the actor may use. */
function usable(actor: Actor) {
  return sql<boolean>`(t.visibility = 'public' OR (t.visibility = 'organization' AND t.orgId = ${actor.org.id})
    OR (t.visibility = 'personal' AND t.userId = ${actor.user.id} AND t.orgId = ${actor.org.id}))`;
}

export function canUse(actor: Actor, t: Template) {
  return (
    t.visibility === "public" ||
    (t.visibility === "organization" && t.orgId === actor.org.id) ||
    (t.visibility === "personal" && t.userId === actor.user.id && t.orgId === actor.org.id)
  );
}

export function canManage(actor: Actor, t: Template) {
  if (actor.isSuperadmin) return true;
  if (isPlatformTemplate(t)) return false;
  if (t.orgId !== actor.org.id) return false;
  if (t.templateType === "organization") return isAdmin(actor);
  return t.userId === actor.user.id || isAdmin(actor);
}

async function load(executor: Executor, id: string) {
  return executor.selectFrom("templates as t").selectAll().where("t.id", "=", id).executeTakeFirst();
}

/** A template the actor may use, else 404 (never reveal others' templates). */
export async function usableTemplate(actor: Actor, id: string, executor: Executor = db) {
  const t = await load(executor, id);
  if (!t || !canUse(actor, t)) throw notFound("Template");
  return t;
}

async function manageable(actor: Actor, id: string, executor: Executor) {
  const t = await load(executor, id);
  if (!t || !(canUse(actor, t) || actor.isSuperadmin)) throw notFound("Template");
  if (!canManage(actor, t)) {
    throw forbidden(isPlatformTemplate(t) ? "Only platform superadmins may change system and marketplace templates" : "You may not change this template");
  }
  return t;
}

function likeText(search: string) {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function textMatch(search: string) {
  const like = likeText(search);
  return sql<boolean>`(t.name LIKE ${like} ESCAPE '\\' OR t.description LIKE ${like} ESCAPE '\\' OR t.tags LIKE ${like} ESCAPE '\\')`;
}

/** GET /api/templates: active templates the actor may use (public, organization, personal). */
export async function listTemplates(actor: Actor, q: ListTemplatesQuery) {
  let query = db.selectFrom("templates as t").selectAll().where(usable(actor)).where("t.isActive", "=", 1);
  if (q.category) query = query.where("t.category", "=", q.category);
  if (q.type) query = query.where("t.templateType", "=", q.type);
  if (q.search) query = query.where(textMatch(q.search));
  const rows = await query.orderBy("t.isFeatured", "desc").orderBy("t.usageCount", "desc").orderBy("t.name").execute();
  return rows.map((t) => presentTemplate(t, actor));
}

export async function getTemplate(actor: Actor, id: string) {
  const t = await load(db, id);
  if (!t || !(canUse(actor, t) || actor.isSuperadmin)) throw notFound("Template");
  return presentTemplate(t, actor);
}

/** GET /api/admin/templates: templates the caller administers, filtered, sorted and paged. */
export async function adminListTemplates(actor: Actor, q: AdminTemplatesQuery) {
  if (!actor.isSuperadmin && !isAdmin(actor)) throw forbidden("Only owners and admins manage templates");
  let query = db.selectFrom("templates as t");
  if (!actor.isSuperadmin) {
    query = query.where((eb) => eb.or([eb("t.orgId", "=", actor.org.id), eb("t.visibility", "=", "public")]));
  }
  if (q.templateType) query = query.where("t.templateType", "=", q.templateType);
  if (q.category) query = query.where("t.category", "=", q.category);
  if (q.visibility) query = query.where("t.visibility", "=", q.visibility);
  if (q.isActive !== undefined) query = query.where("t.isActive", "=", q.isActive ? 1 : 0);
  if (q.isFeatured !== undefined) query = query.where("t.isFeatured", "=", q.isFeatured ? 1 : 0);
  if (q.pricingTier) query = query.where("t.pricingTier", "=", q.pricingTier);
  if (q.search) query = query.where(textMatch(q.search));
  const order = q.sortOrder ?? (q.sortBy === "name" || q.sortBy === "category" ? "asc" : "desc");
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy(q.sortBy === "name" ? sql`t.name COLLATE NOCASE` : sql.ref(`t.${q.sortBy}`), order)
      .orderBy("t.id", order)
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { templates: rows.map((t) => presentTemplate(t, actor)), total: Number(count.n), limit: q.limit, offset: q.offset };
}

function defaultType(actor: Actor): TemplateType {
  return isAdmin(actor) ? "organization" : "personal";
}

const VISIBILITY: Record<TemplateType, Template["visibility"]> = {
  personal: "personal",
  organization: "organization",
  system: "public",
  marketplace: "public",
};

/** Records the template's current state as its next version. */
export async function writeVersion(trx: Executor, t: Template, actorId: string | null, note: string | null) {
  const last = await trx
    .selectFrom("templateVersions")
    .select((eb) => eb.fn.max("number").as("n"))
    .where("templateId", "=", t.id)
    .executeTakeFirst();
  const snapshot = Object.fromEntries(SNAPSHOT_FIELDS.map((f) => [f, t[f]]));
  const number = Number(last?.n ?? 0) + 1;
  await trx
    .insertInto("templateVersions")
    .values({ id: newId(), templateId: t.id, number, snapshot: JSON.stringify(snapshot), note, createdById: actorId, createdAt: nowIso() })
    .execute();
  return number;
}

export async function createTemplate(actor: Actor, input: CreateTemplateInput) {
  const type = input.templateType ?? defaultType(actor);
  if (!actor.isSuperadmin) requireWriter(actor, "Viewers cannot create templates");
  if (type === "organization" && !isAdmin(actor)) throw forbidden("Only owners and admins create organization templates");
  if ((type === "system" || type === "marketplace") && !actor.isSuperadmin) {
    throw forbidden("Only platform superadmins create system and marketplace templates");
  }
  if ((input.isFeatured || input.pricingTier) && !actor.isSuperadmin) {
    throw forbidden("Only platform superadmins set isFeatured and pricingTier");
  }
  const platform = type === "system" || type === "marketplace";
  const now = nowIso();
  const template: Template = {
    id: newId(),
    orgId: platform ? null : actor.org.id,
    userId: actor.user.id,
    name: input.name,
    description: input.description,
    category: input.category,
    templateType: type,
    visibility: VISIBILITY[type],
    systemPrompt: input.systemPrompt ?? "",
    initialQuestion: input.initialQuestion ?? "",
    sections: JSON.stringify(input.sections ?? []),
    tags: JSON.stringify(input.tags ?? []),
    features: JSON.stringify(input.features ?? []),
    isActive: input.isActive === false ? 0 : 1,
    isFeatured: input.isFeatured ? 1 : 0,
    pricingTier: input.pricingTier ?? "free",
    usageCount: 0,
    promptProtected: 0,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction().execute(async (trx) => {
    if (!platform) await assertWithinLimit(trx, actor.org, "templates");
    await trx.insertInto("templates").values(template).execute();
    await writeVersion(trx, template, actor.user.id, "Created");
  });
  return presentTemplate(template, actor);
}

export async function updateTemplate(actor: Actor, id: string, input: UpdateTemplateInput) {
  const updated = await db.transaction().execute(async (trx) => {
    const t = await manageable(actor, id, trx);
    if (input.templateType && input.templateType !== t.templateType) {
      throw validationError("templateType", "A template's type cannot change; create a new template instead");
    }
    if ((input.isFeatured !== undefined || input.pricingTier !== undefined) && !actor.isSuperadmin) {
      throw forbidden("Only platform superadmins set isFeatured and pricingTier");
    }
    const changes: Partial<Template> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description;
    if (input.category !== undefined) changes.category = input.category;
    // "[Protected]" sent back unchanged is not a new prompt. A new prompt written
    // by the template's owners is theirs to read.
    if (input.systemPrompt !== undefined && input.systemPrompt !== PROTECTED) {
      changes.systemPrompt = input.systemPrompt;
      if (!actor.isSuperadmin) changes.promptProtected = 0;
    }
    if (input.initialQuestion !== undefined) changes.initialQuestion = input.initialQuestion;
    if (input.sections !== undefined) changes.sections = JSON.stringify(input.sections);
    if (input.tags !== undefined) changes.tags = JSON.stringify(input.tags);
    if (input.features !== undefined) changes.features = JSON.stringify(input.features);
    if (input.isActive !== undefined) changes.isActive = input.isActive ? 1 : 0;
    if (input.isFeatured !== undefined) changes.isFeatured = input.isFeatured ? 1 : 0;
    if (input.pricingTier !== undefined) changes.pricingTier = input.pricingTier;
    const next = { ...t, ...changes, updatedAt: nowIso() };
    const changed = SNAPSHOT_FIELDS.some((f) => next[f] !== t[f]);
    if (!changed) return t;
    await trx
      .updateTable("templates")
      .set({ ...changes, updatedAt: next.updatedAt })
      .where("id", "=", t.id)
      .execute();
    await writeVersion(trx, next, actor.user.id, input.note ?? null);
    return next;
  });
  return presentTemplate(updated, actor);
}

/** Deletes a template; projects made from it keep working (their templateId stays, the detail shows none). */
export async function deleteTemplate(actor: Actor, id: string) {
  await db.transaction().execute(async (trx) => {
    const t = await manageable(actor, id, trx);
    await trx.deleteFrom("templates").where("id", "=", t.id).execute();
  });
}

function requireVersionAccess(actor: Actor, t: Template) {
  const allowed = actor.isSuperadmin || (t.orgId === actor.org.id && (isAdmin(actor) || t.userId === actor.user.id));
  if (!allowed) throw forbidden("Only organization admins see template versions");
}

export async function listTemplateVersions(actor: Actor, id: string) {
  const t = await load(db, id);
  if (!t || !(canUse(actor, t) || actor.isSuperadmin)) throw notFound("Template");
  requireVersionAccess(actor, t);
  const rows = await db
    .selectFrom("templateVersions as v")
    .leftJoin("users as u", "u.id", "v.createdById")
    .selectAll("v")
    .select("u.name as createdByName")
    .where("v.templateId", "=", id)
    .orderBy("v.number", "desc")
    .execute();
  return rows.map((v) => {
    const snapshot = JSON.parse(v.snapshot) as Record<string, unknown>;
    const shown: Record<string, unknown> = {
      ...snapshot,
      sections: JSON.parse(String(snapshot.sections ?? "[]")),
      tags: JSON.parse(String(snapshot.tags ?? "[]")),
      features: JSON.parse(String(snapshot.features ?? "[]")),
      isActive: snapshot.isActive === 1,
      isFeatured: snapshot.isFeatured === 1,
    };
    const snapshotProtected = isPlatformTemplate(t) || snapshot.promptProtected === 1;
    if (snapshotProtected && !actor.isSuperadmin) shown.systemPrompt = PROTECTED;
    delete shown.promptProtected;
    return {
      id: v.id,
      number: v.number,
      note: v.note,
      createdAt: v.createdAt,
      createdBy: v.createdById ? { id: v.createdById, name: v.createdByName } : null,
      snapshot: shown,
    };
  });
}

/** Brings back an old version's fields; the restore is itself a new version. */
export async function restoreTemplateVersion(actor: Actor, id: string, versionId: string) {
  const restored = await db.transaction().execute(async (trx) => {
    const t = await manageable(actor, id, trx);
    const v = await trx.selectFrom("templateVersions").selectAll().where("id", "=", versionId).where("templateId", "=", id).executeTakeFirst();
    if (!v) throw notFound("Version");
    const snapshot = JSON.parse(v.snapshot) as Partial<Template>;
    const changes = Object.fromEntries(SNAPSHOT_FIELDS.filter((f) => f in snapshot).map((f) => [f, snapshot[f]]));
    const next = { ...t, ...changes, updatedAt: nowIso() } as Template;
    await trx
      .updateTable("templates")
      .set({ ...changes, updatedAt: next.updatedAt })
      .where("id", "=", id)
      .execute();
    await writeVersion(trx, next, actor.user.id, `Restored from version ${v.number}`);
    return next;
  });
  return presentTemplate(restored, actor);
}

/** A template with what this caller may do with it (for pages). */
export async function templateAccess(actor: Actor, id: string) {
  const t = await load(db, id);
  if (!t || !(canUse(actor, t) || actor.isSuperadmin)) throw notFound("Template");
  const versionsAllowed = actor.isSuperadmin || (t.orgId === actor.org.id && (isAdmin(actor) || t.userId === actor.user.id));
  return { template: presentTemplate(t, actor), canEdit: canManage(actor, t), canSeeVersions: versionsAllowed };
}
