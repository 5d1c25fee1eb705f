import type { PlanId, Role } from "#db/schema";
import { config } from "~/config.server";
import { db, type Executor } from "~/db.server";
import { newId, nowIso, randomToken } from "~/utils/ids.server";

function slugify(name: string) {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return base || "workspace";
}

export async function createOrganization(trx: Executor, input: { name: string; ownerId: string; plan?: PlanId }) {
  const now = nowIso();
  const org = {
    id: newId(),
    name: input.name,
    slug: `${slugify(input.name)}-${randomToken(4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")}`,
    plan: input.plan ?? config().DEFAULT_PLAN,
    settings: "{}",
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("organizations").values(org).execute();
  await addMembership(trx, org.id, input.ownerId, "owner");
  return org;
}

export async function addMembership(trx: Executor, orgId: string, userId: string, role: Role) {
  await trx.insertInto("memberships").values({ id: newId(), orgId, userId, role, createdAt: nowIso() }).execute();
}

/** The membership (with its organization) a user lands in by default: their oldest. */
export function defaultMembership(userId: string, executor: Executor = db) {
  return membershipQuery(executor).where("m.userId", "=", userId).orderBy("m.createdAt", "asc").executeTakeFirst();
}

export function findMembership(userId: string, orgId: string, executor: Executor = db) {
  return membershipQuery(executor).where("m.userId", "=", userId).where("m.orgId", "=", orgId).executeTakeFirst();
}

export function listMemberships(userId: string) {
  return membershipQuery(db).where("m.userId", "=", userId).orderBy("m.createdAt", "asc").execute();
}

function membershipQuery(executor: Executor) {
  return executor
    .selectFrom("memberships as m")
    .innerJoin("organizations as o", "o.id", "m.orgId")
    .select(["m.role", "m.orgId", "o.name as orgName", "o.plan", "o.slug", "o.createdAt as orgCreatedAt"]);
}
