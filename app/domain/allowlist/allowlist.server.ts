import type { BlockList } from "node:net";
import { z } from "zod/v4";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { StampedCache } from "~/utils/stamped-cache.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { requirePlan } from "../billing/limits.server";
import { AppError, notFound, validationError } from "../errors";
import { addressMatches, compileRules, parseRule } from "./ip-rules";

export const MAX_ALLOWLIST_ENTRIES = 200;

export const addEntrySchema = z.object({
  cidr: z.string().trim().min(1, "Enter an IP address or CIDR block").max(64),
  label: z.string().trim().max(100).optional().default(""),
});
export type AddEntryInput = z.infer<typeof addEntrySchema>;

export const deleteEntrySchema = z.object({ id: z.string().min(1, "id is required") });

function assertManage(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage the IP allowlist");
  requirePlan(actor.org, "enterprise", "The IP allowlist");
}

function publicEntry(row: { id: string; cidr: string; label: string; createdAt: string }) {
  return { id: row.id, cidr: row.cidr, label: row.label, createdAt: row.createdAt };
}

async function orgCidrs(ex: Executor, orgId: string) {
  const rows = await ex.selectFrom("ipAllowlistEntries").select("cidr").where("orgId", "=", orgId).execute();
  return rows.map((r) => r.cidr);
}

/** Refuses a resulting list that would shut out the caller's own address. */
function assertKeepsCaller(actor: Actor, cidrs: string[]) {
  if (cidrs.length === 0) return;
  if (!addressMatches(compileRules(cidrs), actor.ip)) {
    throw new AppError("CONFLICT", 409, `This change would block your current address (${actor.ip ?? "unknown"}); add a rule that covers it first`, {
      extra: { currentIp: actor.ip },
    });
  }
}

export async function listAllowlist(actor: Actor) {
  assertManage(actor);
  const rows = await db.selectFrom("ipAllowlistEntries").selectAll().where("orgId", "=", actor.org.id).orderBy("createdAt").orderBy("id").execute();
  return rows.map(publicEntry);
}

export async function addAllowlistEntry(actor: Actor, input: AddEntryInput) {
  assertManage(actor);
  const rule = parseRule(input.cidr);
  if (!rule) throw validationError("cidr", "Enter a valid IPv4/IPv6 address or CIDR block (e.g. 203.0.113.0/24)");
  const row = {
    id: newId(),
    orgId: actor.org.id,
    cidr: rule.cidr,
    label: input.label ?? "",
    createdById: actor.user.id,
    createdAt: nowIso(),
  };
  await db.transaction().execute(async (trx) => {
    const existing = await orgCidrs(trx, actor.org.id);
    if (existing.includes(rule.cidr)) throw new AppError("CONFLICT", 409, `${rule.cidr} is already on the allowlist`);
    if (existing.length >= MAX_ALLOWLIST_ENTRIES) {
      throw validationError("cidr", `The allowlist holds at most ${MAX_ALLOWLIST_ENTRIES} entries`);
    }
    assertKeepsCaller(actor, [...existing, rule.cidr]);
    await trx.insertInto("ipAllowlistEntries").values(row).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "ip_allowlist.entry_added",
      category: "security",
      severity: "warning",
      targetType: "ip_allowlist_entry",
      targetId: row.id,
      metadata: { cidr: row.cidr, input: input.cidr, label: row.label, after: [...existing, rule.cidr] },
    });
  });
  return publicEntry(row);
}

export async function removeAllowlistEntry(actor: Actor, id: string) {
  assertManage(actor);
  await db.transaction().execute(async (trx) => {
    const entry = await trx.selectFrom("ipAllowlistEntries").selectAll().where("id", "=", id).where("orgId", "=", actor.org.id).executeTakeFirst();
    if (!entry) throw notFound("Allowlist entry");
    const before = await orgCidrs(trx, actor.org.id);
    const after = before.filter((c) => c !== entry.cidr);
    assertKeepsCaller(actor, after);
    await trx.deleteFrom("ipAllowlistEntries").where("id", "=", id).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "ip_allowlist.entry_removed",
      category: "security",
      severity: "warning",
      targetType: "ip_allowlist_entry",
      targetId: id,
      metadata: { cidr: entry.cidr, label: entry.label, before, after },
    });
  });
}

/** Compiled lists per org (null: no list), valid until the next database write. */
const compiled = new StampedCache<BlockList | null>(2000);

/**
 * Every authenticated request: once an organization has entries, callers
 * from other addresses get 403 IP_NOT_ALLOWED. Orgs without a list cost a
 * cache hit.
 */
/** Whether the organization admits a caller from `ip` (always, without a list). */
export async function ipAllowed(orgId: string, ip: string | null) {
  const list = await compiled.get(orgId, async () => {
    const cidrs = await orgCidrs(db, orgId);
    return cidrs.length ? compileRules(cidrs) : null;
  });
  return !list || addressMatches(list, ip);
}

export function ipNotAllowed(ip: string | null) {
  return new AppError("IP_NOT_ALLOWED", 403, "Your organization does not allow access from this IP address", { extra: { ip } });
}

export async function assertIpAllowed(actor: Actor) {
  if (!(await ipAllowed(actor.org.id, actor.ip))) throw ipNotAllowed(actor.ip);
}
