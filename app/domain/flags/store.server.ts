import type { FeatureFlagsTable } from "#db/schema";
import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { StampedCache } from "~/utils/stamped-cache.server";
import type { Actor } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { forbidden, notFound } from "../errors";
import { evaluateFlag, type FlagDefinition, type FlagSubject } from "./evaluate";
import { BUILTIN_FLAGS, EMPTY_RULES, flagRulesSchema, flagKeySchema, type UpsertFlagInput } from "./flags.schema";

export interface PublicFlag extends FlagDefinition {
  description: string;
  /** `builtin`: not stored, the built-in default applies. */
  source: "builtin" | "stored";
  createdAt: string | null;
  updatedAt: string | null;
}

function fromRow(row: FeatureFlagsTable): PublicFlag {
  const rules = flagRulesSchema.safeParse(JSON.parse(row.rules || "{}"));
  return {
    key: row.key,
    description: row.description,
    enabled: row.enabled === 1,
    rolloutPercentage: row.rolloutPercentage,
    rules: rules.success ? rules.data : EMPTY_RULES,
    source: "stored",
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function builtin(key: string): PublicFlag | null {
  const b = BUILTIN_FLAGS[key];
  if (!b) return null;
  return {
    key,
    description: b.description,
    enabled: b.enabled,
    rolloutPercentage: null,
    rules: EMPTY_RULES,
    source: "builtin",
    createdAt: null,
    updatedAt: null,
  };
}

/** Every flag (stored rows over built-ins), cached until the next database write. */
const cache = new StampedCache<Map<string, PublicFlag>>(1);

export function allFlags(): Promise<Map<string, PublicFlag>> {
  return cache.get("all", async () => {
    const map = new Map<string, PublicFlag>();
    for (const key of Object.keys(BUILTIN_FLAGS)) map.set(key, builtin(key)!);
    const rows = await db.selectFrom("featureFlags").selectAll().execute();
    for (const row of rows) map.set(row.key, fromRow(row));
    return map;
  });
}

export const subjectOf = (actor: Actor | null): FlagSubject => ({
  userId: actor?.user.id ?? null,
  orgId: actor?.org.id ?? null,
  plan: actor?.org.plan ?? null,
});

/** A flag for this caller; a key that is neither stored nor built in is off. */
export async function flagEnabled(actor: Actor | null, key: string) {
  const flag = (await allFlags()).get(key);
  return flag ? evaluateFlag(flag, subjectOf(actor)) : false;
}

export async function enabledFlags(actor: Actor) {
  const subject = subjectOf(actor);
  const out: Record<string, boolean> = {};
  for (const [key, flag] of [...(await allFlags())].sort(([a], [b]) => a.localeCompare(b))) out[key] = evaluateFlag(flag, subject);
  return out;
}

export async function checkFlag(actor: Actor, rawKey: string) {
  const key = flagKeySchema.safeParse(rawKey);
  return { key: rawKey, enabled: key.success ? await flagEnabled(actor, key.data) : false };
}

function requireSuperadmin(actor: Actor) {
  if (!actor.isSuperadmin) throw forbidden("Only platform superadmins manage feature flags");
}

export async function listFlags(actor: Actor) {
  requireSuperadmin(actor);
  return [...(await allFlags()).values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Creates or updates a stored flag; omitted fields keep the current (or built-in) values. */
export async function upsertFlag(actor: Actor, input: UpsertFlagInput) {
  requireSuperadmin(actor);
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("featureFlags").selectAll().where("key", "=", input.key).executeTakeFirst();
    const base = existing ? fromRow(existing) : (builtin(input.key) ?? { description: "", enabled: false, rolloutPercentage: null, rules: EMPTY_RULES });
    const now = nowIso();
    const row: FeatureFlagsTable = {
      key: input.key,
      description: input.description ?? base.description,
      enabled: (input.enabled ?? base.enabled) ? 1 : 0,
      rolloutPercentage: input.rolloutPercentage !== undefined ? input.rolloutPercentage : base.rolloutPercentage,
      rules: JSON.stringify(input.rules ?? base.rules),
      updatedById: actor.user.id,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    if (existing) await trx.updateTable("featureFlags").set(row).where("key", "=", row.key).execute();
    else await trx.insertInto("featureFlags").values(row).execute();
    await writeAudit(trx, {
      orgId: null,
      actorId: actor.user.id,
      actorEmail: actor.user.email,
      action: existing ? "feature_flag.updated" : "feature_flag.created",
      category: "settings",
      targetType: "feature_flag",
      targetId: row.key,
      ip: actor.ip,
      userAgent: actor.userAgent,
      metadata: { enabled: row.enabled === 1, rolloutPercentage: row.rolloutPercentage, rules: JSON.parse(row.rules) },
    });
    return { flag: fromRow(row), created: !existing };
  });
}

/** Removes a stored flag: a built-in key goes back to its default, any other key is off. */
export async function deleteFlag(actor: Actor, key: string) {
  requireSuperadmin(actor);
  await db.transaction().execute(async (trx) => {
    const res = await trx.deleteFrom("featureFlags").where("key", "=", key).executeTakeFirst();
    if (!res.numDeletedRows) throw notFound("Feature flag");
    await writeAudit(trx, {
      orgId: null,
      actorId: actor.user.id,
      actorEmail: actor.user.email,
      action: "feature_flag.deleted",
      category: "settings",
      targetType: "feature_flag",
      targetId: key,
      ip: actor.ip,
      userAgent: actor.userAgent,
    });
  });
}
