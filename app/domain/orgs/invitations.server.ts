import type { Role } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { encrypt } from "~/utils/crypto.server";
import { newId, nowIso, randomToken, sha256 } from "~/utils/ids.server";
import type { RequestMeta } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { assertWithinLimit } from "../billing/limits.server";
import { AppError } from "../errors";
import { emit } from "../events/events.server";
import { addMembership } from "./orgs.server";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Creates a pending invitation and returns it with the raw token. The token
 * is looked up by its sha256; an AES-256-GCM copy lets the organization's
 * admins copy the link (without SMTP that is how it reaches the invitee).
 */
export async function createInvitationRecord(
  trx: Executor,
  input: { orgId: string; email: string; role: Exclude<Role, "owner">; invitedById: string; message?: string | null },
) {
  const token = randomToken();
  const now = new Date();
  const invitation = {
    id: newId(),
    orgId: input.orgId,
    email: input.email.toLowerCase(),
    role: input.role,
    message: input.message ?? null,
    tokenHash: sha256(token),
    tokenEncrypted: encrypt(token),
    invitedById: input.invitedById,
    status: "pending" as const,
    expiresAt: nowIso(new Date(now.getTime() + INVITATION_TTL_MS)),
    acceptedAt: null,
    createdAt: nowIso(now),
    updatedAt: nowIso(now),
  };
  await trx.insertInto("invitations").values(invitation).execute();
  await emit(trx, {
    orgId: input.orgId,
    name: "invitation.created",
    data: { invitationId: invitation.id, email: invitation.email, role: invitation.role },
    actorId: input.invitedById,
  });
  return { invitation, token };
}

/** Throws 401 INVALID_TOKEN unless the invitation is pending, 410 TOKEN_EXPIRED when it has expired. */
export function assertUsable<T extends { status: string; expiresAt: string }>(inv: T | undefined): asserts inv is T {
  if (!inv || inv.status !== "pending") {
    throw new AppError("INVALID_TOKEN", 401, "This invitation is invalid or has already been used");
  }
  if (inv.expiresAt <= nowIso()) throw new AppError("TOKEN_EXPIRED", 410, "This invitation has expired");
}

/** The pending invitation for a raw token; 401 INVALID_TOKEN / 410 TOKEN_EXPIRED otherwise. */
export async function findUsableInvitation(token: string, executor: Executor = db) {
  const inv = await executor.selectFrom("invitations").selectAll().where("tokenHash", "=", sha256(token)).executeTakeFirst();
  assertUsable(inv);
  return inv;
}

/** Joins `user` to the inviting organization, marks the invitation accepted and audits it. */
export async function redeemInvitation(trx: Executor, token: string, user: { id: string; email: string }, meta: Pick<RequestMeta, "ip" | "userAgent">) {
  const inv = await findUsableInvitation(token, trx);
  if (inv.email.toLowerCase() !== user.email.toLowerCase()) {
    throw new AppError("FORBIDDEN", 403, `This invitation was sent to ${inv.email}`);
  }
  const org = await trx.selectFrom("organizations").selectAll().where("id", "=", inv.orgId).executeTakeFirstOrThrow();
  await assertWithinLimit(trx, org, "members");
  await addMembership(trx, inv.orgId, user.id, inv.role);
  await trx.updateTable("invitations").set({ status: "accepted", acceptedAt: nowIso(), updatedAt: nowIso() }).where("id", "=", inv.id).execute();
  await emit(trx, {
    orgId: inv.orgId,
    name: "invitation.accepted",
    data: { invitationId: inv.id, userId: user.id },
    actorId: user.id,
  });
  await emit(trx, {
    orgId: inv.orgId,
    name: "member.added",
    data: { userId: user.id, email: user.email, role: inv.role },
    actorId: user.id,
  });
  await writeAudit(trx, {
    orgId: org.id,
    actorId: user.id,
    actorEmail: user.email,
    ip: meta.ip,
    userAgent: meta.userAgent,
    action: "invitation.accepted",
    category: "team",
    targetType: "invitation",
    targetId: inv.id,
    metadata: { role: inv.role, invitedById: inv.invitedById ?? null },
  });
  return { org, role: inv.role };
}
