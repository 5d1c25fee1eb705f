import { db } from "~/db.server";
import type { Actor } from "../actor";

export interface ProgressStep {
  id: "profile" | "project" | "prd" | "invite" | "share";
  title: string;
  completed: boolean;
  link: string;
}

/**
 * The 5-step getting-started checklist, computed from what exists (nothing is
 * stored): a filled profile, a project the user created, a PRD on a project of
 * theirs (created by or assigned to them), an invitation in one of their
 * organizations (sent by them or a teammate), and a share link they enabled.
 * Exports will count for the last step once exports exist.
 */
export async function onboardingProgress(actor: Actor) {
  const userId = actor.user.id;
  const [profile, project, prd, invite, share] = await Promise.all([
    db
      .selectFrom("userProfiles")
      .select("userId")
      .where("userId", "=", userId)
      .where((eb) => eb.or([eb("jobTitle", "is not", null), eb("bio", "is not", null)]))
      .executeTakeFirst(),
    db.selectFrom("projects").select("id").where("createdById", "=", userId).limit(1).executeTakeFirst(),
    db
      .selectFrom("prds as d")
      .innerJoin("projects as p", "p.id", "d.projectId")
      .select("d.projectId")
      .where((eb) => eb.or([eb("p.createdById", "=", userId), eb("p.assignedToId", "=", userId)]))
      .where("d.content", "!=", "")
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("invitations as i")
      .select("i.id")
      .where((eb) => eb.or([eb("i.invitedById", "=", userId), eb("i.orgId", "in", eb.selectFrom("memberships").select("orgId").where("userId", "=", userId))]))
      .limit(1)
      .executeTakeFirst(),
    db.selectFrom("projectShares").select("projectId").where("createdById", "=", userId).limit(1).executeTakeFirst(),
  ]);
  const steps: ProgressStep[] = [
    { id: "profile", title: "Complete your profile", completed: Boolean(profile), link: "/settings" },
    { id: "project", title: "Start a project", completed: Boolean(project), link: "/projects/new" },
    { id: "prd", title: "Write your first PRD", completed: Boolean(prd), link: "/projects" },
    { id: "invite", title: "Invite a teammate", completed: Boolean(invite), link: "/onboarding" },
    { id: "share", title: "Share or export a PRD", completed: Boolean(share), link: "/projects" },
  ];
  return { steps, completedCount: steps.filter((s) => s.completed).length, total: 5 as const };
}
export type OnboardingProgress = Awaited<ReturnType<typeof onboardingProgress>>;
