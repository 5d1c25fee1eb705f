import { db } from "~/db.server";
import type { Actor } from "../actor";
import { AppError, notFound } from "../errors";
import { findMembership, listMemberships } from "./orgs.server";

/** Organizations the user belongs to, marking the current one. */
export async function myOrganizations(actor: Actor) {
  const rows = await listMemberships(actor.user.id);
  return rows.map((r) => ({ id: r.orgId, name: r.orgName, slug: r.slug, plan: r.plan, role: r.role, current: r.orgId === actor.org.id }));
}

/** Moves the caller's session to another organization they belong to. */
export async function switchOrganization(actor: Actor, organizationId: string) {
  if (!actor.sessionId) throw new AppError("FORBIDDEN", 403, "Switching organization needs a signed-in session, not an API key");
  const membership = await findMembership(actor.user.id, organizationId);
  if (!membership) throw notFound("Organization");
  await db.updateTable("sessions").set({ orgId: organizationId }).where("id", "=", actor.sessionId).execute();
  return { id: membership.orgId, name: membership.orgName, slug: membership.slug, plan: membership.plan, role: membership.role };
}
