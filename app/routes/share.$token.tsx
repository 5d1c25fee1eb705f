import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createCookie, data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { LogoMark, PRODUCT_NAME } from "~/components/logo";
import { RelativeTime, StatusBadge } from "~/components/project-badges";
import { AppError } from "~/domain/errors";
import { getPrd } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import { resolveShare } from "~/domain/sharing/share-access.server";
import { formValues } from "~/http/ui.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { renderMarkdown } from "~/utils/markdown.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && "project" in data && data.project ? `${data.project.name} · Shared PRD` : "Shared PRD · PRD Studio" },
  { name: "robots", content: "noindex" },
];

// The password, once entered, is remembered (encrypted) for this link only.
const passwordCookie = (token: string) =>
  createCookie("share_pw", { path: `/share/${token}`, httpOnly: true, sameSite: "lax", maxAge: 12 * 60 * 60 });

async function savedPassword(request: Request, token: string) {
  const value = (await passwordCookie(token).parse(request.headers.get("Cookie"))) as string | null;
  return value ? decrypt(value) : null;
}

type Outcome = { state: "ok" | "password" | "expired" | "invalid"; message?: string };

async function open(token: string, password: string | null) {
  try {
    const viewer = await resolveShare(token, password);
    const project = await getProject(viewer, viewer.projectId);
    const prd = await getPrd(viewer, viewer.projectId).catch((e) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e)));
    return { outcome: { state: "ok" } as Outcome, project, prd };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const state = error.code === "SHARE_PASSWORD_REQUIRED" ? "password" : error.code === "SHARE_EXPIRED" ? "expired" : "invalid";
    return { outcome: { state, message: error.message } as Outcome, project: null, prd: null };
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = params.token!;
  const result = await open(token, await savedPassword(request, token));
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
      html: result.prd ? renderMarkdown(result.prd.content) : null,
      version: result.prd?.versionNumber ?? null,
    },
    { status },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const token = params.token!;
  const values = await formValues(request);
  const result = await open(token, values.password ?? "");
  if (result.outcome.state !== "ok") return data({ error: "That password is not right." }, { status: 401 });
  return redirect(`/share/${token}`, {
    headers: { "Set-Cookie": await passwordCookie(token).serialize(encrypt(values.password ?? "")) },
  });
}

export default function SharedProject() {
  const { outcome, project, html, version } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <div className="landing">
      <header>
        <Link to="/" className="auth-brand" style={{ margin: 0 }}>
          <LogoMark /> {PRODUCT_NAME}
        </Link>
        <span className="badge">Read-only shared PRD</span>
      </header>
      <main id="main" style={{ marginTop: 24 }}>
        {outcome.state === "ok" && project ? (
          <>
            <div className="page-header">
              <div>
                <h1>{project.name}</h1>
                <div className="meta-row">
                  <StatusBadge status={project.status} />
                  {version ? <span>Version {version}</span> : null}
                  <span>
                    Updated <RelativeTime iso={project.updatedAt} />
                  </span>
                </div>
              </div>
            </div>
            {project.description ? <p className="muted">{project.description}</p> : null}
            {html ? (
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
      </main>
    </div>
  );
}
