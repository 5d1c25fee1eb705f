import { canWrite } from "~/domain/actor";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { TemplateFilters } from "~/components/template-filters";
import { TemplateCard } from "~/components/template-card";
import { listTemplatesQuery, TEMPLATE_TYPES } from "~/domain/templates/templates.schema";
import { listTemplates } from "~/domain/templates/templates.server";
import { queryToObject } from "~/http/api/body.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Templates · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const raw = Object.fromEntries(Object.entries(queryToObject(request.url)).filter(([, v]) => v !== ""));
  const parsed = listTemplatesQuery.safeParse(raw);
  const templates = await listTemplates(actor, parsed.success ? parsed.data : {});
  const all = await listTemplates(actor, {});
  return {
    templates,
    categories: [...new Set(all.map((t) => t.category))].sort(),
    canCreate: canWrite(actor),
    filtered: Object.keys(raw).length > 0,
  };
}

export default function Templates() {
  const { templates, categories, canCreate, filtered } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Templates</h1>
          <p>Start a PRD from a proven structure. Built-in, marketplace, your organization's and your own.</p>
        </div>
        <div className="inline">
          <Link className="btn btn-secondary" to="/marketplace">
            Browse marketplace
          </Link>
          {canCreate ? (
            <Link className="btn" to="/templates/new">
              New template
            </Link>
          ) : null}
        </div>
      </div>
      <TemplateFilters categories={categories} clearHref="/templates" filtered={filtered} placeholder="Name, description or tag">
        <div className="field">
          <label htmlFor="t-type">Type</label>
          <select id="t-type" name="type" defaultValue={params.get("type") ?? ""}>
            <option value="">Any</option>
            {TEMPLATE_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
      </TemplateFilters>
      {templates.length === 0 ? (
        <div className="card empty-state">
          <h2>{filtered ? "No templates match" : "No templates yet"}</h2>
          <p>{filtered ? "Try another search or clear the filters." : "Create one, or take one from the marketplace."}</p>
        </div>
      ) : (
        <div className="template-grid">
          {templates.map((t) => (
            <TemplateCard
              key={t.id}
              t={t}
              href={`/templates/${t.id}`}
              action={
                canCreate ? (
                  <Link className="btn btn-sm" to={`/projects/new?templateId=${t.id}`}>
                    Use template
                  </Link>
                ) : null
              }
            />
          ))}
        </div>
      )}
    </>
  );
}
