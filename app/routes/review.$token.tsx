import type { ActionFunctionArgs, AppLoadContext, HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { FieldNotes, FormAlert, type FormState } from "~/components/forms";
import { PRODUCT_NAME } from "~/components/logo";
import { PublicPrdFrame, PublicProjectHeading } from "~/components/sharing/public-prd-frame";
import { DateTime } from "~/components/project-badges";
import { brandingForOrg } from "~/domain/branding/branding.server";
import { reviewDecisionSchema } from "~/domain/collaboration/collaboration.schema";
import { personalReview, resolveReview } from "~/domain/collaboration/public-review.server";
import { orgForHost } from "~/domain/domains/domains.server";
import { AppError } from "~/domain/errors";
import { getPrd } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import { requestMeta } from "~/http/context.server";
import { formFailure, formValues } from "~/http/ui/ui.server";
import reviewStyles from "~/styles/reviews.css?url";
import { renderMarkdownForPage } from "~/utils/markdown.server";

/**
 * A stakeholder's personal review page (docs/collaboration.md, "Personal
 * review links"): the PRD and the request, with Approve / Request changes.
 * No account: the token in the address is the key. Unknown token: 404.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reviewStyles }];

/** The page holds a bearer link: no shared cache keeps it. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Review “${data.project.name}” · ${PRODUCT_NAME}` : `Review · ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/** The request behind the link; 404 for an unknown one or another organization's on a custom domain, 429 past the limit. */
async function open(request: Request, context: AppLoadContext, token: string) {
  try {
    const opened = await personalReview(token, { ip: requestMeta(request, context).ip });
    const host = await orgForHost(request.headers.get("Host") ?? new URL(request.url).host);
    if (host && host.id !== opened.orgId) throw new Response("Not found", { status: 404 });
    return opened;
  } catch (error) {
    if (error instanceof AppError) throw new Response(error.message, { status: error.status, headers: error.headers });
    throw error;
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { viewer, orgId, review, requestedBy } = await open(request, context, params.token!);
  const [project, prd, branding] = await Promise.all([
    getProject(viewer, viewer.projectId),
    getPrd(viewer, viewer.projectId).catch((e) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e))),
    brandingForOrg(orgId),
  ]);
  return {
    project: { name: project.name, description: project.description, status: project.status, updatedAt: project.updatedAt },
    version: prd?.versionNumber ?? null,
    html: prd ? renderMarkdownForPage(prd.content) : null,
    review: {
      name: review.name,
      stakeholderName: review.stakeholderName,
      audience: review.audience,
      notes: review.notes,
      reviewStatus: review.reviewStatus,
      feedback: review.feedback,
      resolvedAt: review.resolvedAt,
      resolvedVia: review.resolvedVia,
    },
    requestedBy,
    branding,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const token = params.token!;
  const values = await formValues(request);
  const { review } = await open(request, context, token);
  try {
    const input = reviewDecisionSchema.parse(values);
    await resolveReview({ token, password: null }, { reviewId: review.id, ...input }, { ip: requestMeta(request, context).ip });
  } catch (error) {
    return formFailure(error, values);
  }
  return redirect(`/review/${encodeURIComponent(token)}?decided=1`);
}

export default function PersonalReview() {
  const { project, version, html, review, requestedBy, branding } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as FormState | undefined;
  const [search] = useSearchParams();
  const decided = review.reviewStatus === "approved" || review.reviewStatus === "rejected";
  const feedbackError = failure?.fieldErrors?.feedback;
  const statusError = failure?.fieldErrors?.status;
  return (
    <PublicPrdFrame branding={branding} badge="Personal review link">
      <PublicProjectHeading project={project} version={version} />
      {search.get("decided") && decided ? (
        <div className="alert alert-success" role="status">
          <p>Thank you. The team has your decision.</p>
        </div>
      ) : null}
      <section className="review-ask" aria-labelledby="ask-heading">
        <h2 id="ask-heading">Review requested: {review.name}</h2>
        <p data-testid="review-request">
          {review.stakeholderName ? (
            <>
              <strong>{review.stakeholderName}</strong>
              {review.audience ? `, ${review.audience},` : ""} is asked to review this PRD
            </>
          ) : (
            "You are asked to review this PRD"
          )}
          {requestedBy ? ` by ${requestedBy}` : ""}.
        </p>
        {review.notes ? <p>Note from the team: {review.notes}</p> : null}
        <p className="muted">
          {review.stakeholderName ? `Your decision is recorded under the name ${review.stakeholderName}. ` : ""}
          This link is yours alone: please do not forward it.
        </p>
      </section>
      <section className="card review-decide" aria-labelledby="decide-heading" style={{ marginBottom: 16 }}>
        <h2 id="decide-heading">{decided ? "Your decision" : "Decide"}</h2>
        {decided && review.resolvedAt ? (
          <p data-testid="review-decision">
            You {review.reviewStatus === "approved" ? "approved this PRD" : "requested changes"} on <DateTime iso={review.resolvedAt} />
            {review.resolvedVia === "share_link" ? " (through the share link)" : ""}. You can change your decision: the latest one counts.
          </p>
        ) : (
          <p>Read the PRD below, then approve it or ask for changes.</p>
        )}
        <FormAlert state={failure} />
        <Form method="post" className="form">
          <div className="field">
            <label htmlFor="review-feedback">Feedback (optional)</label>
            <textarea
              id="review-feedback"
              name="feedback"
              rows={4}
              maxLength={5000}
              defaultValue={failure?.values?.feedback ?? review.feedback ?? ""}
              aria-invalid={feedbackError ? true : undefined}
              aria-describedby={`review-feedback-hint${feedbackError ? " review-feedback-error" : ""}`}
            />
            <FieldNotes id="review-feedback" hint="What should change, or anything the team should know." error={feedbackError} />
          </div>
          {statusError ? <p className="field-error">{statusError}</p> : null}
          <div className="inline">
            <button className="btn" type="submit" name="status" value="approved">
              Approve
            </button>
            <button className="btn btn-secondary" type="submit" name="status" value="rejected">
              Request changes
            </button>
          </div>
        </Form>
      </section>
      {html ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (renderMarkdown).
        <article className="card prose" aria-label="PRD" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <div className="card empty-state">
          <h2>No PRD yet</h2>
          <p>The team has not written the document yet.</p>
        </div>
      )}
    </PublicPrdFrame>
  );
}
