import { collect } from "~/ai/run.server";
import { startCoach } from "~/domain/ai-tools/coach.server";
import { scoreProject } from "~/domain/ai-tools/score.server";
import { startUserStories, startWireframe } from "~/domain/ai-tools/writing.server";
import { coachSchema, userStoriesSchema, wireframeSchema } from "~/domain/ai-tools/ai-tools.schema";
import { decideApproval } from "~/domain/approvals/decisions.server";
import { ApprovalPendingError } from "~/domain/approvals/requests.server";
import { createWorkflowSchema } from "~/domain/approvals/approvals.schema";
import { createWorkflow } from "~/domain/approvals/workflows.server";
import { addCollaboratorSchema, createCommentSchema, createViewSchema, shareSchema, updateCommentSchema } from "~/domain/collaboration/collaboration.schema";
import { createComment, updateComment } from "~/domain/collaboration/comments.server";
import { addCollaborator } from "~/domain/collaboration/people.server";
import { enableShare } from "~/domain/collaboration/sharing.server";
import { resolveReview } from "~/domain/collaboration/public-review.server";
import { createView } from "~/domain/collaboration/stakeholders.server";
import type { Actor } from "~/domain/actor";
import { getPrd } from "~/domain/prd/prd.server";
import { setProjectStatus } from "~/domain/projects/projects.server";
import type { Actors } from "./accounts";
import type { ProjectIds } from "./workspace";

/**
 * What happens around the PRDs once they exist: comments with mentions, a
 * reply and a resolved thread, the share link with two stakeholder reviews
 * (one answered), AI tool results, and the sign-off workflow with one request
 * approved and one waiting.
 */

/** The heading of the PRD's first section whose title matches, else its first section. */
function sectionOf(content: string, pattern: RegExp) {
  const headings = [...content.matchAll(/^## +(.+)$/gm)].map((m) => m[1]!.trim());
  return headings.find((h) => pattern.test(h)) ?? headings[0];
}

async function comment(actor: Actor, projectId: string, input: { content: string; section?: string; parentId?: string }) {
  const { comment: saved } = await createComment(actor, projectId, createCommentSchema.parse(input));
  return saved.id;
}

export async function discuss(actors: Actors, ids: ProjectIds) {
  const teleop = (await getPrd(actors.priya, ids.teleop)).content;
  const goals = sectionOf(teleop, /goal|metric|success/i);
  const requirements = sectionOf(teleop, /requirement/i);
  const scope = sectionOf(teleop, /scope|risk/i);

  // The viewer reads only what is shared with her: Priya adds Elena as a commenter.
  await addCollaborator(actors.priya, ids.teleop, addCollaboratorSchema.parse({ email: actors.elena.user.email, role: "commenter" }));

  const split = await comment(actors.marcus, ids.teleop, {
    section: goals,
    content: "@Priya Nair can we split the 60% remote-resolution goal by site size? Rotterdam alone could skew it.",
  });
  await comment(actors.priya, ids.teleop, {
    parentId: split,
    content:
      "Good point, I'll break it down per site in the next version. @Tom Okafor could you pull the stuck-robot incident counts per site from the support logs?",
  });
  const firmware = await comment(actors.tom, ids.teleop, {
    section: requirements,
    content:
      "The 500 ms stop-on-disconnect matches what the safety controller supports from firmware 4.2, so robots on older firmware need the update before the pilot.",
  });
  await comment(actors.priya, ids.teleop, { parentId: firmware, content: "Added the firmware 4.2 prerequisite to the rollout plan. Thanks!" });
  await updateComment(actors.priya, ids.teleop, firmware, updateCommentSchema.parse({ resolved: true }));
  await comment(actors.elena, ids.teleop, {
    section: scope,
    content:
      "Customers at the pilot site asked whether their own staff will see when a robot is being driven remotely. Could the robot show a light or play a sound while it is teleoperated?",
  });

  const collision = (await getPrd(actors.tom, ids.collision)).content;
  await comment(actors.tom, ids.collision, {
    section: sectionOf(collision, /privacy|permission/i),
    content: "@Dana Reyes do we need the customer's works council to agree before snapshots that may show people are sent to phones?",
  });
  await comment(actors.marcus, ids.battery, {
    content: "Shipped to all 42 sites. Battery-related downtime is down 41% after the first month; we'll check again at the end of the quarter.",
  });
}

/** The share link of the teleoperation console and its two stakeholder review requests, one answered. */
export async function shareForReview(actors: Actors, ids: ProjectIds, appUrl: string) {
  const { share } = await enableShare(actors.dana, ids.teleop, shareSchema.parse({}), { appUrl });
  await createView(
    actors.priya,
    ids.teleop,
    createViewSchema.parse({
      name: "Operations sign-off",
      stakeholderName: "Sam Patel",
      stakeholderEmail: "sam.patel@example.com",
      audience: "Customer operations, Rotterdam site",
      notes: "Please check the pilot plan and the support hours before we book the operators' training.",
      requestReview: true,
    }),
  );
  const safety = await createView(
    actors.priya,
    ids.teleop,
    createViewSchema.parse({
      name: "Safety review",
      stakeholderName: "Ingrid Visser",
      stakeholderEmail: "ingrid.visser@example.com",
      audience: "Health and safety",
      requestReview: true,
    }),
  );
  // Ingrid answers through her personal review link (the request's own link; the share link would do too, unverified).
  const personal = safety.reviewUrl ? decodeURIComponent(safety.reviewUrl.split("/review/")[1]!) : share.shareToken!;
  await resolveReview(
    { token: personal, password: null },
    {
      reviewId: safety.id,
      status: "approved",
      reviewerName: "Ingrid Visser",
      feedback: "Approved for the pilot, provided the 2-metre check stays mandatory and every session is recorded.",
    },
  );
  return { shareUrl: share.shareUrl!, shareToken: share.shareToken! };
}

/** User stories, a user-flow diagram, a coach review and a score for the teleoperation console (offline drafter). */
export async function runAiTools(actors: Actors, ids: ProjectIds) {
  const { content } = await getPrd(actors.priya, ids.teleop);
  const projectId = ids.teleop;
  await collect(await startUserStories(actors.priya, userStoriesSchema.parse({ content, source: "prd", projectId })));
  await collect(await startWireframe(actors.priya, wireframeSchema.parse({ content, diagramType: "user_flow", projectId })));
  await collect(await startCoach(actors.priya, coachSchema.parse({ prdContent: content, projectId })));
  await scoreProject(actors.priya, projectId, {});
}

/** Moves to Approved need a sign-off: one request approved by Marcus, one still waiting. */
export async function signOff(actors: Actors, ids: ProjectIds) {
  await createWorkflow(
    actors.dana,
    createWorkflowSchema.parse({
      name: "PRD sign-off",
      triggerType: "prd_publish",
      approverIds: [actors.dana.user.id, actors.marcus.user.id],
      requiredApprovals: 1,
    }),
  );
  const approved = await requestApproval(actors.priya, ids.pickPath);
  await decideApproval(actors.marcus, approved, "approve", "The shadow-mode plan is solid: go ahead with the pilot.");
  return { pendingApprovalId: await requestApproval(actors.priya, ids.teleop) };
}

async function requestApproval(actor: Actor, projectId: string) {
  try {
    await setProjectStatus(actor, projectId, "APPROVED");
  } catch (error) {
    if (error instanceof ApprovalPendingError) return error.approvalRequest.id;
    throw error;
  }
  throw new Error("Expected the move to Approved to wait for the sign-off workflow");
}
