import type { Actor, RequestMeta } from "~/domain/actor";
import { register, verifyEmail } from "~/domain/auth/auth.server";
import { issueToken } from "~/domain/auth/tokens.server";
import { applyPlanChange } from "~/domain/billing/change-plan.server";
import { createInvitation, invitationLink } from "~/domain/orgs/invitation-admin.server";
import { createInvitationSchema, updateOrgSettingsSchema } from "~/domain/orgs/orgs.schema";
import { markAllRead } from "~/domain/notifications/notifications.server";
import { updateOrgSettings } from "~/domain/orgs/settings.server";
import { completeOnboarding } from "~/domain/users/onboarding.server";
import { updateProfile } from "~/domain/users/profile.server";
import { onboardingSchema, updateProfileSchema } from "~/domain/users/users.schema";
import { isSuperadmin } from "~/domain/users/users.server";
import { db } from "~/db.server";
import { DEMO_ORG_NAME, PEOPLE, type PersonKey } from "./people";

/**
 * The demo organization and its people, made the way people make them: the
 * owner registers (and confirms the address), names the organization,
 * finishes onboarding and invites the others, who sign up through their
 * invitation links.
 */

export type Actors = Record<PersonKey, Actor>;

/** The actor of a member of `orgId`, as a session of theirs would be (re-read after plan or role changes). */
export async function actorFor(orgId: string, userId: string): Promise<Actor> {
  const row = await db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .innerJoin("organizations as o", "o.id", "m.orgId")
    .select(["u.id", "u.email", "u.name", "u.emailVerifiedAt", "u.timezone", "m.role", "o.name as orgName", "o.plan"])
    .where("m.orgId", "=", orgId)
    .where("m.userId", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    user: { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerifiedAt !== null, timezone: row.timezone },
    org: { id: orgId, name: row.orgName, plan: row.plan },
    role: row.role,
    via: "session",
    isSuperadmin: isSuperadmin(row),
    ip: null,
    userAgent: "demo-seed",
  };
}

export async function createPeople(meta: RequestMeta, password: string): Promise<{ orgId: string; actors: Actors }> {
  const [owner, ...others] = PEOPLE;
  const signedUp = await register({ name: owner!.name, email: owner!.email, password, timezone: "Europe/Amsterdam" }, meta);
  const orgId = signedUp.organization.id;
  const ownerId = signedUp.user.id;
  // The link of the confirmation e-mail, followed.
  await verifyEmail({ token: await issueToken(db, ownerId, "email_verification") });
  await updateOrgSettings(await actorFor(orgId, ownerId), updateOrgSettingsSchema.parse({ name: DEMO_ORG_NAME }));
  // Enterprise, so approval workflows are on (as `npm run org:plan` or Administration → Plans would do).
  await db.transaction().execute((trx) =>
    applyPlanChange(trx, {
      orgId,
      toPlan: "enterprise",
      interval: null,
      provider: "local",
      source: "admin",
      actor: { id: ownerId, email: owner!.email },
    }),
  );
  const dana = await actorFor(orgId, ownerId);
  // Dana has seen the plan change's notification.
  await markAllRead(dana);
  await completeOnboarding(
    dana,
    onboardingSchema.parse({
      fullName: owner!.name,
      jobTitle: owner!.jobTitle,
      company: DEMO_ORG_NAME,
      useCase: "PRDs for warehouse robots, their fleet software and the customer-facing apps",
      teamSize: "11-50",
      prdStyle: "comprehensive",
      interests: ["ai-drafting", "reviews", "approvals"],
    }),
    meta,
  );
  await updateProfile(dana, updateProfileSchema.parse({ bio: owner!.bio }));

  const actors: Partial<Actors> = { dana: await actorFor(orgId, ownerId) };
  for (const person of others) {
    const invitation = await createInvitation(
      actors.dana!,
      createInvitationSchema.parse({ email: person.email, role: person.role, message: `Welcome to ${DEMO_ORG_NAME}'s PRD workspace.` }),
      meta,
    );
    const { url } = await invitationLink(actors.dana!, invitation.id, meta);
    const inviteToken = decodeURIComponent(url.split("/invite/")[1]!);
    const joined = await register({ name: person.name, email: person.email, password, timezone: "Europe/Amsterdam", inviteToken }, meta);
    const actor = await actorFor(orgId, joined.user.id);
    await updateProfile(actor, updateProfileSchema.parse({ jobTitle: person.jobTitle, bio: person.bio }));
    actors[person.key] = actor;
  }
  return { orgId, actors: actors as Actors };
}
