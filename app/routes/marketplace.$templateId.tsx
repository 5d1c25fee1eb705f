import { canWrite } from "~/domain/actor";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton } from "~/components/forms";
import { PublicHeader } from "~/components/public-header";
import { appUrl } from "~/config.server";
import { getMarketplaceTemplate } from "~/domain/templates/marketplace.server";
import { projectFromMarketplace } from "~/domain/templates/quick-start.server";
import { fromMarketplaceSchema } from "~/domain/templates/submissions.schema";
import { formFailure, formValues, getUiActor, orPageError, requireUiActor } from "~/http/ui/ui.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? seo({
        title: `${data.template.name} — PRD template · PRD Studio`,
        description: data.template.description,
        url: data.url,
        type: "article",
      })
    : [{ title: "Template not found · PRD Studio" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await getUiActor(request, context);
  const template = await orPageError(getMarketplaceTemplate(actor, params.templateId!));
  return {
    template,
    signedIn: Boolean(actor),
    canUse: Boolean(actor && canWrite(actor)),
    url: `${appUrl()}/marketplace/${template.id}`,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const { project } = await projectFromMarketplace(actor, fromMarketplaceSchema.parse({ templateId: params.templateId, name: values.name || undefined }));
    return redirect(`/projects/${project.id}`);
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function MarketplaceTemplate() {
  const { template: t, signedIn, canUse } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <div className="landing">
      <PublicHeader signedIn={signedIn} />
      <main id="main" style={{ marginTop: 24 }}>
        <nav aria-label="Breadcrumb" className="muted" style={{ marginBottom: 8 }}>
          <Link to="/marketplace">Marketplace</Link> / {t.name}
        </nav>
        <div className="split-3">
          <article className="card">
            <div className="inline">
              <span className="badge">{t.templateType === "system" ? "Built-in" : "Community"}</span>
              {t.isFeatured ? <span className="badge badge-brand">Featured</span> : null}
              <span className="muted">
                {t.category} · used {t.usageCount}×
              </span>
            </div>
            <h1 style={{ marginTop: 10 }}>{t.name}</h1>
            <p>{t.description}</p>
            {t.features.length ? (
              <ul>
                {t.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            ) : null}
            <h2>Sections</h2>
            <ol className="section-list" style={{ fontSize: "1rem" }}>
              {t.sections.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ol>
            {t.initialQuestion ? (
              <>
                <h2>How it starts</h2>
                <p>PRD Studio opens the conversation with: “{t.initialQuestion}”</p>
              </>
            ) : null}
            {t.tags.length ? <p className="muted">{t.tags.map((tag) => `#${tag}`).join(" ")}</p> : null}
          </article>
          <aside className="card">
            <h2>Use this template</h2>
            {canUse ? (
              <>
                <FormAlert state={state} />
                <Form method="post" className="form">
                  <div className="field">
                    <label htmlFor="mp-name">Project name</label>
                    <input id="mp-name" name="name" defaultValue={t.name} maxLength={200} />
                  </div>
                  <SubmitButton className="btn btn-block" pendingText="Starting…">
                    Start a project with it
                  </SubmitButton>
                </Form>
                <p className="muted" style={{ marginTop: 8 }}>
                  A copy goes into your workspace's templates.
                </p>
              </>
            ) : signedIn ? (
              <p className="muted">Viewers cannot start projects. Ask a member of your workspace.</p>
            ) : (
              <>
                <p className="muted">Create a free account to start a PRD from this template.</p>
                <Link className="btn btn-block" to={`/sign-up?redirectTo=${encodeURIComponent(`/marketplace/${t.id}`)}`}>
                  Sign up to use it
                </Link>
                <p className="auth-footer">
                  Have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent(`/marketplace/${t.id}`)}`}>Sign in</Link>
                </p>
              </>
            )}
          </aside>
        </div>
      </main>
    </div>
  );
}
