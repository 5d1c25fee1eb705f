import crypto from "node:crypto";
import { sql } from "kysely";
import { appUrl } from "~/config.server";
import { db } from "~/db.server";
import { RateLimiter, assertAllowed, rateHeaders } from "~/utils/rate-limiter.server";
import { nowIso } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError, notFound } from "../errors";
import { parseOrgSettings } from "../orgs/settings.server";
import { lookupCname, lookupTxt } from "./dns.server";
import { TXT_PREFIX, VERIFY_PER_MINUTE, type SetDomainInput } from "./domains.schema";

/**
 * Custom domain of an organization, kept in
 * organizations.settings.customDomain. Verification needs both a CNAME of
 * the domain to the app's host (APP_URL) and a TXT record
 * `_prd-verification.<domain>` holding the organization's token.
 */

export interface DomainCheck {
  verified: boolean;
  checks: { cname: boolean; txt: boolean };
  message: string;
}
interface StoredDomain {
  domain: string;
  token: string;
  verified: boolean;
  verifiedAt: string | null;
  lastCheck: (DomainCheck & { at: string }) | null;
}

export const appHost = () => new URL(appUrl()).hostname.toLowerCase();

function present(d: StoredDomain | undefined) {
  if (!d) return null;
  return {
    domain: d.domain,
    verified: d.verified,
    verifiedAt: d.verifiedAt,
    records: [
      { type: "CNAME", name: d.domain, value: appHost() },
      { type: "TXT", name: `${TXT_PREFIX}.${d.domain}`, value: d.token },
    ],
    lastCheck: d.lastCheck,
  };
}
export type DomainState = ReturnType<typeof present>;

async function loadOrg(orgId: string) {
  const org = await db.selectFrom("organizations").select(["id", "settings"]).where("id", "=", orgId).executeTakeFirst();
  if (!org) throw notFound("Organization");
  return { org, settings: parseOrgSettings(org.settings) };
}

async function save(orgId: string, settings: Record<string, any>) {
  await db
    .updateTable("organizations")
    .set({ settings: JSON.stringify(settings), updatedAt: nowIso() })
    .where("id", "=", orgId)
    .execute();
}

/** The domain, its DNS records to create and the last verification result (null when none is set). */
export async function getDomain(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "see the custom domain");
  const { settings } = await loadOrg(actor.org.id);
  return present(settings.customDomain);
}

const domainTaken = () => new AppError("CONFLICT", 409, "Another organization has verified this domain");

/** Whether an organization other than `orgId` has verified `domain`. */
async function verifiedElsewhere(orgId: string, domain: string) {
  const row = await db
    .selectFrom("organizations")
    .select("id")
    .where("id", "!=", orgId)
    .where(sql<string>`json_extract(settings, '$.customDomain.domain')`, "=", domain)
    .where(sql<number>`json_extract(settings, '$.customDomain.verified')`, "=", 1)
    .executeTakeFirst();
  return Boolean(row);
}

/** Sets (or replaces) the domain; a new domain starts unverified with a fresh token. */
export async function setDomain(actor: Actor, input: SetDomainInput) {
  requireRole(actor, ADMIN_ROLES, "set the custom domain");
  if (input.domain === appHost()) {
    throw new AppError("VALIDATION_ERROR", 400, "That is this app's own host", { details: [{ path: "domain", message: "Use a domain of your own" }] });
  }
  if (await verifiedElsewhere(actor.org.id, input.domain)) throw domainTaken();
  const { settings } = await loadOrg(actor.org.id);
  const current = settings.customDomain as StoredDomain | undefined;
  if (current?.domain === input.domain) return present(current);
  settings.customDomain = {
    domain: input.domain,
    token: `prd-verify-${crypto.randomBytes(16).toString("hex")}`,
    verified: false,
    verifiedAt: null,
    lastCheck: null,
  } satisfies StoredDomain;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("organizations")
      .set({ settings: JSON.stringify(settings), updatedAt: nowIso() })
      .where("id", "=", actor.org.id)
      .execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "organization.domain_set",
      category: "settings",
      targetType: "organization",
      targetId: actor.org.id,
      metadata: { before: current?.domain ?? null, after: input.domain },
    });
  });
  return present(settings.customDomain);
}

export async function removeDomain(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "remove the custom domain");
  const { settings } = await loadOrg(actor.org.id);
  if (!settings.customDomain) return;
  const before = settings.customDomain.domain;
  delete settings.customDomain;
  await save(actor.org.id, settings);
  await writeAudit(db, {
    ...auditActor(actor),
    action: "organization.domain_removed",
    category: "settings",
    targetType: "organization",
    targetId: actor.org.id,
    metadata: { before },
  });
}

const limiter = new RateLimiter(60_000);
export const resetDomainRateLimitForTests = () => limiter.reset();

/** Checks CNAME and TXT through DNS; 5 checks a minute per organization (429 RATE_LIMITED). */
export async function verifyDomain(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "verify the custom domain");
  const rate = limiter.hit(`domain-verify:${actor.org.id}`, VERIFY_PER_MINUTE);
  assertAllowed(rate, "domain verifications");
  const { settings } = await loadOrg(actor.org.id);
  const d = settings.customDomain as StoredDomain | undefined;
  if (!d)
    throw new AppError("VALIDATION_ERROR", 400, "Set a domain before verifying it", { details: [{ path: "domain", message: "No custom domain is set" }] });
  const host = appHost();
  const [cnames, txts] = await Promise.all([lookupCname(d.domain), lookupTxt(`${TXT_PREFIX}.${d.domain}`)]);
  const checks = { cname: cnames.includes(host), txt: txts.some((t) => t.trim() === d.token) };
  const verified = checks.cname && checks.txt;
  const problems = [
    checks.cname ? null : cnames.length ? `${d.domain} is a CNAME of ${cnames.join(", ")}, not ${host}` : `no CNAME record of ${d.domain} points to ${host}`,
    checks.txt
      ? null
      : txts.length
        ? `the TXT record at ${TXT_PREFIX}.${d.domain} does not hold the token`
        : `no TXT record found at ${TXT_PREFIX}.${d.domain}`,
  ].filter(Boolean);
  const message = verified
    ? `${d.domain} is verified: share links on it show your branding.`
    : `Not verified yet: ${problems.join("; ")}. DNS changes can take a while to appear.`;
  const result: DomainCheck = { verified, checks, message };
  // One organization per domain: DNS can hold several TXT tokens, the index
  // (migration 0016) allows one verified owner; the first to verify keeps it.
  if (verified && !d.verified && (await verifiedElsewhere(actor.org.id, d.domain))) throw domainTaken();
  const wasVerified = d.verified;
  d.lastCheck = { ...result, at: nowIso() };
  d.verified = verified;
  d.verifiedAt = verified ? (wasVerified ? d.verifiedAt : nowIso()) : null;
  try {
    await save(actor.org.id, settings);
  } catch (error) {
    // Another organization verified it between the check and this write.
    if (String((error as Error).message).includes("UNIQUE constraint failed")) throw domainTaken();
    throw error;
  }
  if (verified !== wasVerified) {
    await writeAudit(db, {
      ...auditActor(actor),
      action: verified ? "organization.domain_verified" : "organization.domain_unverified",
      category: "settings",
      targetType: "organization",
      targetId: actor.org.id,
      metadata: { domain: d.domain, checks },
    });
  }
  return { result, rateHeaders: rateHeaders(rate) };
}

/** The organization whose verified custom domain is `host` (port ignored), if any. */
export async function orgForHost(host: string | null | undefined) {
  const name = (host ?? "").toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  if (!name || name === appHost()) return null;
  const row = await db
    .selectFrom("organizations")
    .select(["id", "name", "settings"])
    .where(sql<string>`json_extract(settings, '$.customDomain.domain')`, "=", name)
    .where(sql<number>`json_extract(settings, '$.customDomain.verified')`, "=", 1)
    .executeTakeFirst();
  return row ?? null;
}
