import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createCookie, data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PublicPrdFrame, PublicProjectHeading } from "~/components/sharing/public-prd-frame";
import { brandingForOrg } from "~/domain/branding/branding.server";
import { shareBrandOrgId } from "~/domain/branding/share-host.server";
import { AppError } from "~/domain/errors";
import { getPrd } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import { resolveShare } from "~/domain/sharing/share-access.server";
import { resolveReviewSchema } from "~/domain/collaboration/collaboration.schema";
import { resolveReview, reviewsByToken } from "~/domain/collaboration/public-review.server";
import { requestMeta } from "~/http/context.server";
import { formValues } from "~/http/ui/ui.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { sha256 } from "~/utils/ids.server";
import { renderMarkdownForPage } from "~/utils/markdown.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && "project" in data && data.project ? `${data.project.name} · Shared PRD` : "Shared PRD · PRD Studio" },
  { name: "robots", content: "noindex" },
];

// The password, once entered, is remembered (encrypted) for this link only:
// one cookie per link, named after a hash of its token.
const passwordCookie = (token: string) =>
  createCookie(`share_${sha256(token).slice(0, 16)}`, { path: "/share", httpOnly: true, sameSite: "lax", maxAge: 12 * 60 * 60 });

async function savedPassword(request: Request, token: string) {
  const value = (await passwordCookie(token).parse(request.headers.get("Cookie"))) as string | null;
  return value ? decrypt(value) : null;
}

type Outcome = { state: "ok" | "password" | "expired" | "invalid"; message?: string };

async function open(token: string, password: string | null, ip: string | null) {
  try {
    const viewer = await resolveShare(token, password);
    const project = await getProject(viewer, viewer.projectId);
    const prd = await getPrd(viewer, viewer.projectId).catch((e) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e)));
    const { reviews } = await reviewsByToken({ token, password }, { ip });
    return { outcome: { state: "ok" } as Outcome, project, prd, reviews };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const state = error.code === "SHARE_PASSWORD_REQUIRED" ? "password" : error.code === "SHARE_EXPIRED" ? "expired" : "invalid";
    return { outcome: { state, message: error.message } as Outcome, project: null, prd: null, reviews: [] };
  }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = params.token!;
  const brandOrgId = await shareBrandOrgId(request, token);
  const result = await open(token, await savedPassword(request, token), requestMeta(request, context).ip);
  const status = result.outcome.state === "ok" ? 200 : result.outcome.state === "expired" ? 410 : 401;
  return data(
    {
      outcome: result.outcome,
      project: result.project && {
        name: result.project.name,
        description: result.project.description,
        status: result.project.status,
        updatedAt: result.project.updatedAt,
      },
      html: result.prd ? renderMarkdownForPage(result.prd.content) : null,
      reviews: result.reviews.map((r) => ({
        id: r.id,
        name: r.name,
        stakeholderName: r.stakeholderName,
        reviewStatus: r.reviewStatus,
        feedback: r.feedback,
        resolvedByName: r.resolvedByName,
        resolvedVia: r.resolvedVia,
        personalLinkOnly: r.personalLinkOnly,
      })),
      version: result.prd?.versionNumber ?? null,
      branding: brandOrgId ? await brandingForOrg(brandOrgId) : null,
    },
    { status },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token!;
  const { ip } = requestMeta(request, context);
  await shareBrandOrgId(request, token);
  const values = await formValues(request);
  if (values.intent === "review") {
    try {
      const input = resolveReviewSchema.parse({ ...values, token });
      await resolveReview({ token, password: await savedPassword(request, token) }, input, { ip });
      return { reviewed: input.status };
    } catch (error) {
      if (error instanceof AppError) return data({ error: error.message }, { status: error.status });
      return data({ error: "Choose approve or reject, and keep the feedback under 5,000 characters." }, { status: 400 });
    }
  }
  const result = await open(token, values.password ?? "", ip);
  if (result.outcome.state !== "ok") return data({ error: "That password is not right." }, { status: 401 });
  return redirect(`/share/${token}`, {
    headers: { "Set-Cookie": await passwordCookie(token).serialize(encrypt(values.password ?? "")) },
  });
}

export default function SharedProject() {
  const { outcome, project, html, version, reviews, branding } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const failed = acted && "error" in acted ? acted : null;
  return (
    <PublicPrdFrame branding={branding} badge="Read-only shared PRD">
      {outcome.state === "ok" && project ? (
        <>
          <PublicProjectHeading project={project} version={version} />
          {project.description ? <p className="muted">{project.description}</p> : null}
          {acted && "reviewed" in acted ? (
            <div className="alert alert-success" role="status">
              <p>Thank you — your decision ({acted.reviewed}) was sent to the team.</p>
            </div>
          ) : null}
          {failed ? (
            <div className="alert alert-error" role="alert">
              <p>{failed.error}</p>
            </div>
          ) : null}
          {reviews.length ? (
            <section className="card" aria-labelledby="reviews-heading" style={{ marginBottom: 16 }}>
              <h2 id="reviews-heading">Your review is requested</h2>
              {reviews.map((r) =>
                r.personalLinkOnly ? (
                  <div className="review-form" key={r.id}>
                    <strong>{r.name}</strong>
                    {r.stakeholderName ? <span className="muted"> · for {r.stakeholderName}</span> : null} <span className="badge">{r.reviewStatus}</span>
                    <p className="muted">Answered on the reviewer's personal review link, which the team sent them. It cannot be decided here.</p>
                  </div>
                ) : (
                  <Form method="post" className="form review-form" key={r.id}>
                    <input type="hidden" name="intent" value="review" />
                    <input type="hidden" name="reviewId" value={r.id} />
                    <div>
                      <strong>{r.name}</strong>
                      {r.stakeholderName ? <span className="muted"> · for {r.stakeholderName}</span> : null} <span className="badge">{r.reviewStatus}</span>
                      {r.resolvedByName ? (
                        <span className="muted">
                          {" "}
                          by {r.resolvedByName}
                          {r.resolvedVia === "share_link" ? " (name given on the share link, not verified)" : " (personal review link)"}
                        </span>
                      ) : null}
                    </div>
                    <div className="form-row">
                      <div className="field" style={{ flex: 1 }}>
                        <label htmlFor={`name-${r.id}`}>Your name</label>
                        <input id={`name-${r.id}`} name="reviewerName" maxLength={200} />
                      </div>
                    </div>
                    <div className="field">
                      <label htmlFor={`feedback-${r.id}`}>Feedback</label>
                      <textarea id={`feedback-${r.id}`} name="feedback" rows={3} maxLength={5000} defaultValue={r.feedback ?? ""} />
                    </div>
                    <div className="inline">
                      <button className="btn" type="submit" name="status" value="approved">
                        Approve
                      </button>
                      <button className="btn btn-danger" type="submit" name="status" value="rejected">
                        Reject
                      </button>
                    </div>
                  </Form>
                ),
              )}
            </section>
          ) : null}
          {html ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (renderMarkdown).
            <article className="card prose" dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <div className="card empty-state">
              <h2>No PRD yet</h2>
              <p>The team has not written the document yet.</p>
            </div>
          )}
        </>
      ) : outcome.state === "password" ? (
        <div className="auth-card card" style={{ margin: "40px auto" }}>
          <h1>This PRD is protected</h1>
          <p className="muted">Enter the password you were given with the link.</p>
          {failed ? (
            <div className="alert alert-error" role="alert">
              <p>{failed.error}</p>
            </div>
          ) : null}
          <Form method="post" className="form">
            <div className="field">
              <label htmlFor="share-password">Password</label>
              {/* biome-ignore lint/a11y/noAutofocus: the password gate's one field. */}
              <input id="share-password" name="password" type="password" required autoFocus autoComplete="off" />
            </div>
            <button className="btn btn-block" type="submit">
              Open
            </button>
          </Form>
        </div>
      ) : (
        <div className="card empty-state" style={{ margin: "40px auto", maxWidth: 520 }}>
          <h1>{outcome.state === "expired" ? "This link has expired" : "This link does not work"}</h1>
          <p>
            {outcome.state === "expired"
              ? "Ask the person who shared it for a new link."
              : "It may have been revoked, or mistyped. Ask the person who shared it for a new link."}
          </p>
        </div>
      )}
    </PublicPrdFrame>
  );
}
