import { db } from "~/db.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { AppError, notFound } from "../errors";
import { TRACKER_INFO } from "./adapter";
import { type AllowedTarget, parseAllowedTargets, sameTarget } from "./allowed-targets";
import { connectionRows, listedTargets, presentConnection, updateConnection } from "./connections.server";
import type { AllowedTargetsInput } from "./trackers.schema";

/**
 * Choosing where a tracker connection may send stories (allowed-targets.ts
 * holds the rule and the check). Owners and admins only; the choices are the
 * targets the token reaches now, plus those already allowed (kept even when
 * the token no longer lists them, so an outage of the service changes nothing).
 */

/** The targets the service lists for the connection, each with whether it is allowed, and allowed ones it no longer lists. */
async function choicesOf(actor: Actor, id: string) {
  const { row, listed } = await listedTargets(actor, id);
  return { row, listed, allowed: parseAllowedTargets(row.allowedTargets) };
}

/**
 * The settings page's form (/settings/trackers/{id}): every target with
 * whether it is allowed and whether stories were already sent there with this
 * connection (checked first when nothing was chosen yet).
 */
export async function allowedTargetChoices(actor: Actor, id: string) {
  requireRole(actor, ADMIN_ROLES, "choose where stories may be sent");
  const row = await connectionRows(actor.org.id).where("c.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Tracker connection");
  const connection = presentConnection(row, true);
  const used = (await db.selectFrom("trackerIssues").select("target").distinct().where("connectionId", "=", id).execute()).map((r) => r.target);
  const wasUsed = (target: string) => used.some((u) => sameTarget(u, target));
  try {
    const { listed, allowed } = await choicesOf(actor, id);
    const targets = listed.map((t) => ({
      id: t.id,
      name: t.name,
      allowed: allowed?.some((a) => sameTarget(a.id, t.id)) ?? false,
      used: wasUsed(t.id),
      listed: true,
    }));
    for (const a of allowed ?? [])
      if (!listed.some((t) => sameTarget(t.id, a.id))) targets.push({ id: a.id, name: a.name, allowed: true, used: wasUsed(a.id), listed: false });
    return { connection, targets, error: null };
  } catch (error) {
    if (!(error instanceof AppError) || error.status === 404) throw error;
    // The service cannot be asked now: the page still shows (and can keep) what is allowed.
    const targets = (connection.allowedTargets ?? []).map((a) => ({ ...a, allowed: true, used: wasUsed(a.id), listed: false }));
    return { connection, targets, error: error.message };
  }
}

/**
 * PUT /api/integrations/trackers/{id}/allowed-targets: `allowedTargets` is the
 * list of ids (each one the token reaches, or one already allowed), or null to
 * allow any target the token reaches. Recorded in the audit log.
 */
export async function setAllowedTargets(actor: Actor, id: string, input: AllowedTargetsInput) {
  requireRole(actor, ADMIN_ROLES, "choose where stories may be sent");
  let list: AllowedTarget[] | null = null;
  if (input.allowedTargets) {
    const { row, listed, allowed } = await choicesOf(actor, id);
    list = [];
    for (const wanted of input.allowedTargets) {
      if (list.some((t) => sameTarget(t.id, wanted))) continue;
      const found = listed.find((t) => sameTarget(t.id, wanted)) ?? allowed?.find((t) => sameTarget(t.id, wanted));
      if (!found) {
        const { name, target } = TRACKER_INFO[row.service];
        const message = `${wanted} is not a ${target} this ${name} connection can create issues in`;
        throw new AppError("VALIDATION_ERROR", 400, message, { details: [{ path: "allowedTargets", message }] });
      }
      list.push({ id: found.id, name: found.name });
    }
  }
  const connection = await updateConnection(actor, id, { allowedTargets: list ? JSON.stringify(list) : null }, "tracker.allowed_targets_set", {
    allowedTargets: list ? list.map((t) => t.id) : "any",
  });
  return { connection };
}
