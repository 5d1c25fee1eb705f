import { db } from "~/db.server";
import type { Actor } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { AppError, validationError } from "../errors";
import { emit } from "../events/events.server";
import { normalizeEmail } from "./users.server";
import type { DeleteAccountInput } from "./users.schema";

/**
 * Permanently deletes the caller's account, in one transaction.
 *
 * - 400 VALIDATION_ERROR unless `confirmEmail` is the account's e-mail.
 * - 409 OWNERSHIP_TRANSFER_REQUIRED when the user is the only owner of an
 *   organization that has other members (the organizations are named).
 * - Organizations where the user is the only member are deleted with all
 *   their data (every organization-scoped table cascades).
 * - In organizations that continue, the membership goes; projects, PRD
 *   versions and comments the user wrote stay with the organization and lose
 *   their author (the FKs to users are ON DELETE SET NULL); an audit entry
 *   and a `member.removed` event record the departure.
 * - Sessions, one-time tokens, REST API keys, personal AI keys, memories,
 *   notifications, collaborator entries and the profile are deleted.
 */
export async function deleteAccount(actor: Actor, input: DeleteAccountInput) {
  if (normalizeEmail(input.confirmEmail) !== normalizeEmail(actor.user.email)) {
    throw validationError("confirmEmail", "Type your account e-mail exactly to confirm the deletion");
  }
  const userId = actor.user.id;
  return db.transaction().execute(async (trx) => {
    const memberships = await trx
      .selectFrom("memberships as m")
      .innerJoin("organizations as o", "o.id", "m.orgId")
      .select([
        "m.orgId",
        "m.role",
        "o.name",
        (eb) =>
          eb
            .selectFrom("memberships as x")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("x.orgId", "=", "m.orgId")
            .where("x.userId", "!=", userId)
            .as("others"),
        (eb) =>
          eb
            .selectFrom("memberships as x")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("x.orgId", "=", "m.orgId")
            .where("x.userId", "!=", userId)
            .where("x.role", "=", "owner")
            .as("otherOwners"),
      ])
      .where("m.userId", "=", userId)
      .execute();

    const blocking = memberships.filter((m) => m.role === "owner" && Number(m.otherOwners) === 0 && Number(m.others) > 0);
    if (blocking.length) {
      const names = blocking.map((m) => m.name).join(", ");
      throw new AppError(
        "OWNERSHIP_TRANSFER_REQUIRED",
        409,
        `You are the only owner of ${names}. Make another member an owner (or remove the other members) before deleting your account.`,
        { extra: { organizations: blocking.map((m) => ({ id: m.orgId, name: m.name })) } },
      );
    }

    const deletedOrgs = memberships.filter((m) => Number(m.others) === 0);
    const survivingOrgs = memberships.filter((m) => Number(m.others) > 0);

    for (const m of survivingOrgs) {
      await writeAudit(trx, {
        orgId: m.orgId,
        actorId: null,
        actorEmail: actor.user.email,
        action: "user.account_deleted",
        category: "team",
        severity: "warning",
        targetType: "user",
        targetId: userId,
        ip: actor.ip,
        userAgent: actor.userAgent,
        metadata: { role: m.role },
      });
      await emit(trx, {
        orgId: m.orgId,
        name: "member.removed",
        data: { userId, email: actor.user.email, role: m.role, reason: "account_deleted" },
        actorId: null,
      });
    }

    await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
    await trx.deleteFrom("oneTimeTokens").where("userId", "=", userId).execute();
    await trx.deleteFrom("apiKeys").where("userId", "=", userId).execute();
    await trx.deleteFrom("aiProviderKeys").where("scope", "=", "user").where("userId", "=", userId).execute();
    await trx.deleteFrom("memories").where("userId", "=", userId).execute();
    await trx.deleteFrom("notifications").where("userId", "=", userId).execute();
    await trx.deleteFrom("projectCollaborators").where("userId", "=", userId).execute();
    await trx.deleteFrom("userProfiles").where("userId", "=", userId).execute();
    await trx.deleteFrom("memberships").where("userId", "=", userId).execute();
    if (deletedOrgs.length) {
      await trx
        .deleteFrom("organizations")
        .where(
          "id",
          "in",
          deletedOrgs.map((m) => m.orgId),
        )
        .execute();
    }
    // Remaining references (projects.createdById, comments.userId, audit actorId ...) are SET NULL by their FKs.
    await trx.deleteFrom("users").where("id", "=", userId).execute();
    return {
      deletedOrganizations: deletedOrgs.map((m) => ({ id: m.orgId, name: m.name })),
      leftOrganizations: survivingOrgs.map((m) => ({ id: m.orgId, name: m.name })),
    };
  });
}
