import { canWrite } from "~/domain/actor";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { DateTime, RelativeTime } from "~/components/project-badges";
import { TemplateForm } from "~/components/template-form";
import { TemplateListingForm } from "~/components/template-listing-form";
import { marketplacePricingTiers } from "~/domain/templates/filter-choices.server";
import { isPlatformTemplate } from "~/domain/templates/present";
import { createSubmissionSchema } from "~/domain/templates/submissions.schema";
import { listOwnSubmissions, submitTemplate } from "~/domain/templates/submissions.server";
import { updateTemplateSchema } from "~/domain/templates/templates.schema";
import { deleteTemplate, listTemplateVersions, restoreTemplateVersion, templateAccess, updateTemplate } from "~/domain/templates/templates.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.template.name ?? "Template"} · PRD Studio` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const access = await orPageError(templateAccess(actor, params.templateId!));
  const versions = access.canSeeVersions ? await listTemplateVersions(actor, params.templateId!) : [];
  const submissions = (await listOwnSubmissions(actor)).filter((s) => s.templateId === access.template.id);
  // The listing fields (active, featured, pricing tier) are the platform superadmins' alone.
  const listing = actor.isSuperadmin ? { pricingTiers: [...new Set(["free", ...(await marketplacePricingTiers())])] } : null;
  return { ...access, versions, submissions, canUse: canWrite(actor), listing };
}

export const action = intentAction({
  save: async ({ actor, values, params }) => {
    await updateTemplate(actor, params.templateId!, updateTemplateSchema.parse(values));
    return { message: "Saved. A new version was recorded." };
  },
  listing: async ({ actor, values, params }) => {
    // Unticked checkboxes send nothing: that is "false". The domain refuses these fields from anyone but a superadmin.
    const input = updateTemplateSchema.parse({
      isActive: values.isActive ?? "false",
      isFeatured: values.isFeatured ?? "false",
      pricingTier: values.pricingTier ?? "",
      note: "Listing changed",
    });
    await updateTemplate(actor, params.templateId!, input);
    return { message: "Listing saved." };
  },
  delete: async ({ actor, params }) => {
    await deleteTemplate(actor, params.templateId!);
    return redirect("/templates");
  },
  submit: async ({ actor, values, params }) => {
    await submitTemplate(actor, createSubmissionSchema.parse({ templateId: params.templateId!, notes: values.notes }));
    return { message: "Submitted to the marketplace. A platform admin will review it." };
  },
  restore: async ({ actor, values, params }) => {
    await restoreTemplateVersion(actor, params.templateId!, values.versionId ?? "");
    return { message: "Version restored. The restore is recorded as a new version." };
  },
});

export default function TemplatePage() {
  const { template: t, canEdit, versions, canUse, submissions, listing } = useLoaderData<typeof loader>();
  const pending = submissions.some((s) => s.status === "pending");
  const result = useActionData<typeof action>();
  const failure = result && "formError" in result ? result : null;
  // A failed listing post is shown in its own card; any other failure at the top and in the edit form.
  const listingState = failure?.intent === "listing" ? failure : null;
  const state = listingState ? null : failure;
  return (
    <>
      <nav aria-label="Breadcrumb" className="muted" style={{ marginBottom: 8 }}>
        <Link to="/templates">Templates</Link> / {t.name}
      </nav>
      <div className="page-header">
        <div>
          <h1>{t.name}</h1>
          <div className="meta-row">
            <span className="badge">{t.templateType}</span>
            <span>{t.category}</span>
            <span>used {t.usageCount}×</span>
            <span>
              updated <RelativeTime iso={t.updatedAt} />
            </span>
          </div>
        </div>
        {canUse ? (
          <Link className="btn" to={`/projects/new?templateId=${t.id}`}>
            Use template
          </Link>
        ) : null}
      </div>
      {result && "message" in result ? (
        <div className="alert alert-success" role="status">
          <p>{result.message}</p>
        </div>
      ) : null}
      <FormAlert state={state} />
      <div className="split-3">
        <div className="stack">
          {canEdit ? (
            <section className="card" aria-labelledby="edit-heading">
              <h2 id="edit-heading">Edit</h2>
              <TemplateForm initial={t} state={state} submitLabel="Save changes" protectedPrompt={t.systemPrompt === "[Protected]"} />
            </section>
          ) : (
            <section className="card" aria-labelledby="about-heading">
              <h2 id="about-heading">About</h2>
              <p>{t.description}</p>
              <h3>Sections</h3>
              <ol className="section-list">
                {t.sections.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ol>
              {t.initialQuestion ? (
                <>
                  <h3>First question</h3>
                  <p>“{t.initialQuestion}”</p>
                </>
              ) : null}
              <h3>System prompt</h3>
              <div className="prompt-box">{t.systemPrompt || "—"}</div>
            </section>
          )}
        </div>
        <aside className="stack">
          {listing ? <TemplateListingForm template={t} state={listingState} pricingTiers={listing.pricingTiers} /> : null}
          {versions.length ? (
            <section className="card" aria-labelledby="versions-heading">
              <h2 id="versions-heading">Versions</h2>
              <ol className="feed">
                {versions.map((v, i) => (
                  <li key={v.id} style={{ justifyContent: "space-between" }}>
                    <span>
                      <strong>v{v.number}</strong> {v.note ? <span className="muted">{v.note}</span> : null}
                      <div className="muted" style={{ fontSize: "0.85rem" }}>
                        {v.createdBy?.name ?? "PRD Studio"} · <DateTime iso={v.createdAt} />
                      </div>
                    </span>
                    {canEdit && i > 0 ? (
                      <PostButton intent="restore" fields={{ versionId: v.id }} label={`Restore version ${v.number}`}>
                        Restore
                      </PostButton>
                    ) : null}
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
          {canEdit && !isPlatformTemplate(t) && t.systemPrompt !== "[Protected]" ? (
            <section className="card" aria-labelledby="submit-heading">
              <h2 id="submit-heading">Marketplace</h2>
              {submissions.length ? (
                <ul className="feed">
                  {submissions.map((s) => (
                    <li key={s.id} style={{ display: "block" }}>
                      <span className={`badge ${s.status === "approved" ? "badge-success" : s.status === "rejected" ? "badge-danger" : "badge-warning"}`}>
                        {s.status}
                      </span>{" "}
                      <span className="muted">
                        submitted <RelativeTime iso={s.createdAt} />
                      </span>
                      {s.reason ? <div>Reason: {s.reason}</div> : null}
                      {s.marketplaceTemplateId ? <Link to={`/marketplace/${s.marketplaceTemplateId}`}>View on the marketplace</Link> : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="muted">Share this template with every PRD Studio user. Platform admins review submissions.</p>
              )}
              {!pending ? (
                <Form method="post" className="form" style={{ marginTop: 10 }}>
                  <input type="hidden" name="intent" value="submit" />
                  <div className="field">
                    <label htmlFor="submit-notes">Notes for the reviewer</label>
                    <textarea id="submit-notes" name="notes" rows={3} maxLength={2000} />
                  </div>
                  <div>
                    <button className="btn btn-secondary btn-sm" type="submit">
                      Submit to marketplace
                    </button>
                  </div>
                </Form>
              ) : null}
            </section>
          ) : null}
          {canEdit && !isPlatformTemplate(t) ? (
            <section className="card" aria-labelledby="delete-heading">
              <h2 id="delete-heading">Delete</h2>
              <p className="muted">Projects made from it keep their PRDs.</p>
              <PostButton intent="delete" className="btn btn-danger btn-sm">
                Delete template
              </PostButton>
            </section>
          ) : null}
        </aside>
      </div>
    </>
  );
}
