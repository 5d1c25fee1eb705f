import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { CollaboratorsCard } from "~/components/sharing/collaborators-card";
import { LinksCard } from "~/components/sharing/links-card";
import { StakeholderReviewsCard } from "~/components/sharing/reviews-card";
import { ShareLinkCard } from "~/components/sharing/share-link-card";
import { appUrl } from "~/config.server";
import { addCollaboratorSchema, createLinkSchema, reviewRequestFormSchema, shareSchema } from "~/domain/collaboration/collaboration.schema";
import { createLink, deleteLink, listLinks } from "~/domain/collaboration/links.server";
import { addCollaborator, listCollaborators, removeCollaborator } from "~/domain/collaboration/people.server";
import { enableShare, getShare, revokeShare } from "~/domain/collaboration/sharing.server";
import { createView, deleteView, listViews, sendReviewLink } from "~/domain/collaboration/stakeholders.server";
import { listMembers } from "~/domain/orgs/members.server";
import { getProject, listProjects } from "~/domain/projects/projects.server";
import { listProjectsSchema } from "~/domain/projects/projects.schema";
import { intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";
import reviewStyles from "~/styles/reviews.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reviewStyles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  const canManage = project.permissions.canManage;
  const [share, collaborators, views, links, members, others] = await Promise.all([
    canManage ? getShare(actor, project.id, { appUrl: appUrl() }) : null,
    listCollaborators(actor, project.id),
    listViews(actor, project.id),
    listLinks(actor, project.id),
    canManage ? listMembers(actor) : [],
    canManage ? listProjects(actor, listProjectsSchema.parse({ sortBy: "name", limit: 200 })) : { projects: [] },
  ]);
  return {
    canManage,
    share,
    collaborators,
    views,
    links,
    members,
    otherProjects: others.projects.filter((p) => p.id !== project.id).map((p) => ({ id: p.id, name: p.name })),
  };
}

/** A date from an <input type=date> as the end of that day in UTC. */
const endOfDay = (date: string | undefined) => (date ? `${date}T23:59:59.000Z` : undefined);

/** What the page shows beside the form that was sent. */
const done = (intent: string, message: string) => ({ message, intent });

export const action = intentAction(
  {
    "share-enable": async ({ actor, values, intent, params }) => {
      const input = shareSchema.parse({
        password: values.removePassword === "on" ? null : values.password || undefined,
        expiresAt: values.noExpiry === "on" ? null : endOfDay(values.expiresOn),
      });
      await enableShare(actor, params.projectId!, input, { appUrl: appUrl() });
      return done(intent, "Share link is on. Anyone with the link can read this PRD.");
    },
    "share-revoke": async ({ actor, intent, params }) => {
      await revokeShare(actor, params.projectId!);
      return done(intent, "Share link revoked. The old link no longer works.");
    },
    "collab-add": async ({ actor, values, intent, params }) => {
      await addCollaborator(actor, params.projectId!, addCollaboratorSchema.parse(values));
      return done(intent, `Added ${values.email} as ${values.role}.`);
    },
    "collab-remove": async ({ actor, values, intent, params }) => {
      await removeCollaborator(actor, params.projectId!, values.collaboratorId ?? "");
      return done(intent, "Collaborator removed.");
    },
    "view-create": async ({ actor, values, intent, params }) => {
      const sections = values.sections
        ? values.sections
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
      const view = await createView(actor, params.projectId!, reviewRequestFormSchema.parse({ ...values, sections }));
      const who = view.stakeholderName ?? "the reviewer";
      return done(
        intent,
        view.linkSentAt
          ? `Review requested. ${who}'s personal link was e-mailed to ${view.stakeholderEmail}.`
          : `Review requested. Copy ${who}'s personal link below and send it to them.`,
      );
    },
    "view-send-link": async ({ actor, values, intent, params }) => {
      const view = await sendReviewLink(actor, params.projectId!, values.viewId ?? "");
      return done(intent, `The personal link for “${view.name}” was e-mailed to ${view.stakeholderEmail}.`);
    },
    "view-delete": async ({ actor, values, intent, params }) => {
      await deleteView(actor, params.projectId!, values.viewId ?? "");
      return done(intent, "Stakeholder view deleted.");
    },
    "link-create": async ({ actor, values, intent, params }) => {
      await createLink(actor, params.projectId!, createLinkSchema.parse({ ...values, linkType: values.linkType || undefined }));
      return done(intent, "Link added.");
    },
    "link-delete": async ({ actor, values, intent, params }) => {
      await deleteLink(actor, params.projectId!, values.linkId ?? "");
      return done(intent, "Link removed.");
    },
  },
  { secretFields: ["password"] },
);

export default function Sharing() {
  const { canManage, share, collaborators, views, links, members, otherProjects } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = result && "formError" in result ? result : null;
  const notice = (intentPrefix: string) =>
    result?.intent?.startsWith(intentPrefix) ? (
      "message" in result ? (
        <div className="alert alert-success" role="status">
          <p>{result.message}</p>
        </div>
      ) : (
        <FormAlert state={failure} />
      )
    ) : null;

  return (
    <div className="stack">
      {canManage && share ? <ShareLinkCard share={share} notice={notice("share")} /> : null}

      <div className="split">
        <CollaboratorsCard collaborators={collaborators} members={members} canManage={canManage} notice={notice("collab")} />

        <LinksCard links={links} otherProjects={otherProjects} canManage={canManage} notice={notice("link")} />
      </div>

      <StakeholderReviewsCard views={views} canManage={canManage} notice={notice("view")} failure={failure?.intent === "view-create" ? failure : null} />
      {!canManage ? <p className="muted">Only people who can edit this project manage sharing, people and links.</p> : null}
    </div>
  );
}
