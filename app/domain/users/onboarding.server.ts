import { db, type Executor } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { type Actor, type RequestMeta, isAdmin } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { forbidden } from "../errors";
import { queueEmail } from "../mail/mail.server";
import { createInvitationRecord } from "../orgs/invitations.server";
import { createOrganization } from "../orgs/orgs.server";
import { parsePreferences, profileRow, upsertProfile } from "./profile.server";
import type { OnboardingInput } from "./users.schema";

export async function getOnboarding(actor: Actor, executor: Executor = db) {
  const p = await profileRow(executor, actor.user.id);
  return {
    completed: p.onboardingCompletedAt !== null,
    completedAt: p.onboardingCompletedAt,
    preferences: parsePreferences(p.onboardingPreferences),
  };
}

/**
 * Completes onboarding (idempotent: a second call updates the preferences and
 * keeps the first completedAt). Also sets name, job title and preferred style,
 * creates the organization when asked (the caller's session moves into it)
 * and invites teammates to that organization or the current one.
 */
export async function completeOnboarding(actor: Actor, input: OnboardingInput, meta: RequestMeta) {
  if (input.inviteEmails.length && !input.createOrg && !isAdmin(actor)) {
    throw forbidden("Only an Owner or Admin may invite people to this organization; create your own organization to invite teammates");
  }
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const existing = await profileRow(trx, actor.user.id);
    const preferences = {
      company: input.company,
      useCase: input.useCase,
      teamSize: input.teamSize,
      prdStyle: input.prdStyle,
      interests: input.interests,
    };
    await trx.updateTable("users").set({ name: input.fullName, updatedAt: now }).where("id", "=", actor.user.id).execute();
    await upsertProfile(trx, actor.user.id, {
      jobTitle: input.jobTitle,
      preferredStyle: input.prdStyle,
      onboardingPreferences: JSON.stringify(preferences),
      onboardingCompletedAt: existing.onboardingCompletedAt ?? now,
    });

    let organization: { id: string; name: string; slug: string; plan: string; role: "owner" } | null = null;
    let targetOrgId = actor.org.id;
    if (input.createOrg && input.orgName) {
      const org = await createOrganization(trx, { name: input.orgName, ownerId: actor.user.id });
      organization = { id: org.id, name: org.name, slug: org.slug, plan: org.plan, role: "owner" };
      targetOrgId = org.id;
      if (actor.sessionId) await trx.updateTable("sessions").set({ orgId: org.id }).where("id", "=", actor.sessionId).execute();
      await writeAudit(trx, {
        orgId: org.id,
        actorId: actor.user.id,
        actorEmail: actor.user.email,
        action: "organization.created",
        category: "team",
        targetType: "organization",
        targetId: org.id,
        ip: actor.ip,
        userAgent: actor.userAgent,
        metadata: { via: "onboarding" },
      });
    }

    const invitations = await inviteTeammates(trx, actor, targetOrgId, input.inviteEmails, meta);
    const status = await getOnboarding(actor, trx);
    return { ...status, organization, invitations };
  });
}

/**
 * Creates a pending `member` invitation per new address and e-mails its
 * sign-up link. Skips the caller, existing members and addresses with a
 * pending invitation already (so repeating onboarding does not re-invite).
 */
async function inviteTeammates(trx: Executor, actor: Actor, orgId: string, emails: string[], meta: RequestMeta) {
  const wanted = [...new Set(emails)].filter((e) => e !== actor.user.email.toLowerCase());
  if (!wanted.length) return { recorded: [] as string[], skipped: [] as string[], sent: false };
  const members = await trx
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select("u.email")
    .where("m.orgId", "=", orgId)
    .where("u.email", "in", wanted)
    .execute();
  const pending = await trx
    .selectFrom("invitations")
    .select("email")
    .where("orgId", "=", orgId)
    .where("status", "=", "pending")
    .where("email", "in", wanted)
    .execute();
  const taken = new Set([...members, ...pending].map((r) => r.email.toLowerCase()));
  const org = await trx.selectFrom("organizations").select("name").where("id", "=", orgId).executeTakeFirstOrThrow();
  const recorded: string[] = [];
  for (const email of wanted) {
    if (taken.has(email)) continue;
    const { token } = await createInvitationRecord(trx, { orgId, email, role: "member", invitedById: actor.user.id });
    const url = `${meta.appUrl}/sign-up?invite=${encodeURIComponent(token)}`;
    await queueEmail(trx, { to: email, orgId, kind: "invitation", ...invitationMessage(actor.user.name, org.name, url) });
    recorded.push(email);
  }
  return { recorded, skipped: wanted.filter((e) => taken.has(e)), sent: recorded.length > 0 };
}

function invitationMessage(inviter: string, orgName: string, url: string) {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const subject = `${inviter} invited you to ${orgName} on PRD Studio`;
  const lines = [
    `${inviter} invited you to join ${orgName} on PRD Studio, where the team writes and reviews its product requirements.`,
    "The invitation is valid for 7 days.",
  ];
  return {
    subject,
    text: [...lines, `Accept the invitation: ${url}`].join("\n\n"),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;max-width:560px;margin:auto;padding:24px"><h1 style="font-size:20px">${esc(subject)}</h1>${lines.map((l) => `<p>${esc(l)}</p>`).join("")}<p><a href="${esc(url)}">Accept the invitation</a></p></body></html>`,
  };
}
