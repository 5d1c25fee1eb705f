import { db, type Executor } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { nowIso, randomToken, sha256 } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, type RequestMeta, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { assertWithinLimit } from "../billing/limits.server";
import { AppError, notFound } from "../errors";
import { queueEmail } from "../mail/mail.server";
import { invitationMessage } from "./invitation-mail";
import { assertUsable, createInvitationRecord, INVITATION_TTL_MS, redeemInvitation } from "./invitations.server";
import type { CreateInvitationInput } from "./orgs.schema";
import type { Selectable } from "kysely";
import type { InvitationsTable } from "#db/schema";

type InvitationRow = Pick<Selectable<InvitationsTable>, "id" | "email" | "role" | "message" | "status" | "expiresAt" | "createdAt" | "invitedById">;

function publicInvitation(inv: InvitationRow, invitedByName?: string | null) {
  return {
    id: inv.id,
    email: inv.email,
    role: inv.role,
    message: inv.message,
    status: inv.status,
    expiresAt: inv.expiresAt,
    expired: inv.expiresAt <= nowIso(),
    createdAt: inv.createdAt,
    invitedBy: inv.invitedById ? { id: inv.invitedById, name: invitedByName ?? null } : null,
  };
}

const inviteUrl = (meta: Pick<RequestMeta, "appUrl">, token: string) => `${meta.appUrl}/invite/${encodeURIComponent(token)}`;

async function sendInvitationMail(trx: Executor, actor: Actor, inv: InvitationRow, token: string, meta: RequestMeta) {
  await queueEmail(trx, {
    to: inv.email,
    orgId: actor.org.id,
    kind: "invitation",
    ...invitationMessage({ orgName: actor.org.name, inviterName: actor.user.name, role: inv.role, message: inv.message, url: inviteUrl(meta, token) }),
  });
}

async function pendingInOrg(trx: Executor, orgId: string, id: string) {
  const inv = await trx
    .selectFrom("invitations as i")
    .leftJoin("users as u", "u.id", "i.invitedById")
    .selectAll("i")
    .select("u.name as invitedByName")
    .where("i.id", "=", id)
    .where("i.orgId", "=", orgId)
    .where("i.status", "=", "pending")
    .executeTakeFirst();
  if (!inv) throw notFound("Invitation");
  return inv;
}

/** Pending invitations of the organization (expired ones are flagged). */
export async function listInvitations(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage invitations");
  const rows = await db
    .selectFrom("invitations as i")
    .leftJoin("users as u", "u.id", "i.invitedById")
    .selectAll("i")
    .select("u.name as invitedByName")
    .where("i.orgId", "=", actor.org.id)
    .where("i.status", "=", "pending")
    .orderBy("i.createdAt", "desc")
    .execute();
  return rows.map((r) => publicInvitation(r, r.invitedByName));
}

/** Invites an e-mail address; members plus open invitations count against the plan's member limit. */
export async function createInvitation(actor: Actor, input: CreateInvitationInput, meta: RequestMeta) {
  requireRole(actor, ADMIN_ROLES, "invite members");
  const email = input.email.toLowerCase();
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.userId")
      .select("u.id")
      .where("m.orgId", "=", actor.org.id)
      .where("u.email", "=", email)
      .executeTakeFirst();
    if (existing) throw new AppError("CONFLICT", 409, `${email} is already a member of this organization`);
    // A new invitation to the same address replaces the previous one.
    await trx
      .updateTable("invitations")
      .set({ status: "cancelled", updatedAt: nowIso() })
      .where("orgId", "=", actor.org.id)
      .where("email", "=", email)
      .where("status", "=", "pending")
      .execute();
    const open = await trx
      .selectFrom("invitations")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("orgId", "=", actor.org.id)
      .where("status", "=", "pending")
      .where("expiresAt", ">", nowIso())
      .executeTakeFirstOrThrow();
    await assertWithinLimit(trx, actor.org, "members", Number(open.n) + 1);
    const { invitation, token } = await createInvitationRecord(trx, {
      orgId: actor.org.id,
      email,
      role: input.role,
      invitedById: actor.user.id,
      message: input.message || null,
    });
    await sendInvitationMail(trx, actor, invitation, token, meta);
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "invitation.created",
      category: "team",
      targetType: "invitation",
      targetId: invitation.id,
      metadata: { email, role: input.role },
    });
    return publicInvitation(invitation, actor.user.name);
  });
}

/**
 * A new token and a new e-mail; the previous link stops working. The
 * resender becomes `invitedBy`: the new e-mail says they invited the
 * invitee, and the list and the invite page say the same (the original
 * inviter stays in the audit log, invitation.created).
 */
export async function resendInvitation(actor: Actor, id: string, meta: RequestMeta) {
  requireRole(actor, ADMIN_ROLES, "manage invitations");
  return db.transaction().execute(async (trx) => {
    const inv = await pendingInOrg(trx, actor.org.id, id);
    const token = randomToken();
    const next = {
      tokenHash: sha256(token),
      tokenEncrypted: encrypt(token),
      invitedById: actor.user.id,
      expiresAt: nowIso(new Date(Date.now() + INVITATION_TTL_MS)),
      updatedAt: nowIso(),
    };
    await trx.updateTable("invitations").set(next).where("id", "=", inv.id).execute();
    const { invitedByName: _previous, ...row } = inv;
    const updated = { ...row, ...next };
    await sendInvitationMail(trx, actor, updated, token, meta);
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "invitation.resent",
      category: "team",
      targetType: "invitation",
      targetId: inv.id,
      metadata: { email: inv.email, previousInvitedById: inv.invitedById },
    });
    return publicInvitation(updated, actor.user.name);
  });
}

/**
 * The invitation's link, for an admin to hand to the invitee (without SMTP
 * the only way it reaches them). Only admins of the inviting organization
 * see it; the invitee's account never does (docs/security.md, "Outbox").
 */
export async function invitationLink(actor: Actor, id: string, meta: Pick<RequestMeta, "appUrl">) {
  requireRole(actor, ADMIN_ROLES, "copy invitation links");
  const inv = await pendingInOrg(db, actor.org.id, id);
  const token = inv.tokenEncrypted ? decrypt(inv.tokenEncrypted) : null;
  if (!token) throw new AppError("CONFLICT", 409, "This invitation's link cannot be shown; resend the invitation to make a new one");
  return { invitation: publicInvitation(inv, inv.invitedByName), url: inviteUrl(meta, token) };
}

/** Cancels a pending invitation; its link stops working. */
export async function cancelInvitation(actor: Actor, id: string) {
  requireRole(actor, ADMIN_ROLES, "manage invitations");
  await db.transaction().execute(async (trx) => {
    const inv = await pendingInOrg(trx, actor.org.id, id);
    await trx.updateTable("invitations").set({ status: "cancelled", updatedAt: nowIso() }).where("id", "=", inv.id).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "invitation.cancelled",
      category: "team",
      targetType: "invitation",
      targetId: inv.id,
      metadata: { email: inv.email },
    });
  });
}

/** Public: what a token invites to. 404 when unknown, used or cancelled; 410 TOKEN_EXPIRED when expired. */
export async function verifyInvitation(token: string) {
  const inv = await db
    .selectFrom("invitations as i")
    .innerJoin("organizations as o", "o.id", "i.orgId")
    .leftJoin("users as u", "u.id", "i.invitedById")
    .select(["i.id", "i.email", "i.role", "i.status", "i.expiresAt", "i.message", "o.id as orgId", "o.name as orgName", "u.name as inviterName"])
    .where("i.tokenHash", "=", sha256(token))
    .executeTakeFirst();
  if (!inv || inv.status !== "pending") throw notFound("Invitation");
  if (inv.expiresAt <= nowIso()) throw new AppError("TOKEN_EXPIRED", 410, "This invitation has expired; ask for a new one");
  const account = await db.selectFrom("users").select("id").where("email", "=", inv.email).executeTakeFirst();
  return {
    valid: true as const,
    organization: { id: inv.orgId, name: inv.orgName },
    email: inv.email,
    role: inv.role,
    message: inv.message,
    invitedBy: inv.inviterName ?? null,
    expiresAt: inv.expiresAt,
    hasAccount: Boolean(account),
  };
}

/**
 * The signed-in user (whose e-mail must match) joins the organization; their
 * session moves there. The token itself proves the address: it was mailed
 * there (or, without SMTP, handed over by an admin who read it in the outbox,
 * the only people who can), so an account whose e-mail is the invitation's
 * and not yet confirmed is confirmed by accepting, as signing up with the
 * token does. An account with another address is refused (redeemInvitation).
 */
export async function acceptInvitation(actor: Actor, token: string) {
  const sent = await db.selectFrom("invitations").select(["orgId", "email", "status", "expiresAt"]).where("tokenHash", "=", sha256(token)).executeTakeFirst();
  if (sent && sent.email.toLowerCase() === actor.user.email.toLowerCase()) {
    const already = await db.selectFrom("memberships").select("id").where("orgId", "=", sent.orgId).where("userId", "=", actor.user.id).executeTakeFirst();
    if (already) throw new AppError("CONFLICT", 409, "You are already a member of this organization");
    assertUsable(sent);
  }
  return db.transaction().execute(async (trx) => {
    const { org, role } = await redeemInvitation(trx, token, actor.user, { ip: actor.ip, userAgent: actor.userAgent });
    if (!actor.user.emailVerified) {
      // Reached only with the invitation's own address (redeemInvitation refuses any other).
      const now = nowIso();
      const confirmed = await trx
        .updateTable("users")
        .set({ emailVerifiedAt: now, updatedAt: now })
        .where("id", "=", actor.user.id)
        .where("emailVerifiedAt", "is", null)
        .executeTakeFirst();
      if (Number(confirmed.numUpdatedRows) > 0) {
        await writeAudit(trx, {
          orgId: org.id,
          actorId: actor.user.id,
          actorEmail: actor.user.email,
          ip: actor.ip,
          userAgent: actor.userAgent,
          action: "auth.email_verified",
          category: "auth",
          targetType: "user",
          targetId: actor.user.id,
          metadata: { via: "invitation" },
        });
      }
    }
    if (actor.sessionId) await trx.updateTable("sessions").set({ orgId: org.id }).where("id", "=", actor.sessionId).execute();
    return { organization: { id: org.id, name: org.name, slug: org.slug, plan: org.plan, role } };
  });
}
