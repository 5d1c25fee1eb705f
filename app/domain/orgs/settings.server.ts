import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { PLAN_NAMES } from "../billing/plans";
import { notFound } from "../errors";
import type { UpdateOrgSettingsInput } from "./orgs.schema";

export const DEFAULT_BRANDING = { primaryColor: "#4f46e5", accentColor: "#0ea5e9", companyName: "", logoUrl: null as string | null };
export const DEFAULT_ORG_NOTIFICATIONS = { emailDigest: true, memberJoinedAlerts: true, billingAlerts: true, securityAlerts: true };

export function parseOrgSettings(raw: string | null | undefined): Record<string, any> {
  try {
    const value = JSON.parse(raw || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function present(org: { name: string; plan: keyof typeof PLAN_NAMES; settings: string }) {
  const s = parseOrgSettings(org.settings);
  return {
    name: org.name,
    branding: { ...DEFAULT_BRANDING, ...(s.branding ?? {}) },
    notifications: { ...DEFAULT_ORG_NOTIFICATIONS, ...(s.notifications ?? {}) },
    plan: { id: org.plan, name: PLAN_NAMES[org.plan] },
  };
}
export type OrgSettings = ReturnType<typeof present>;

/** Settings of the caller's organization (any member may read them). */
export async function getOrgSettings(actor: Actor) {
  const org = await db.selectFrom("organizations").selectAll().where("id", "=", actor.org.id).executeTakeFirst();
  if (!org) throw notFound("Organization");
  return present(org);
}

/** Updates name, branding colours/company name and notification preferences; other settings keys are kept. */
export async function updateOrgSettings(actor: Actor, input: UpdateOrgSettingsInput) {
  requireRole(actor, ADMIN_ROLES, "change organization settings");
  return db.transaction().execute(async (trx) => {
    const org = await trx.selectFrom("organizations").selectAll().where("id", "=", actor.org.id).executeTakeFirst();
    if (!org) throw notFound("Organization");
    const before = present(org);
    const s = parseOrgSettings(org.settings);
    if (input.settings?.branding) s.branding = { ...(s.branding ?? {}), ...input.settings.branding };
    if (input.settings?.notifications) s.notifications = { ...(s.notifications ?? {}), ...input.settings.notifications };
    const next = { name: input.name ?? org.name, settings: JSON.stringify(s), updatedAt: nowIso() };
    await trx.updateTable("organizations").set(next).where("id", "=", org.id).execute();
    const after = present({ ...org, ...next });
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "organization.settings_updated",
      category: "settings",
      targetType: "organization",
      targetId: org.id,
      metadata: { before, after, changed: Object.keys(input) },
    });
    return after;
  });
}
