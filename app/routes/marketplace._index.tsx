import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { TemplateFilters } from "~/components/template-filters";
import { PublicHeader } from "~/components/public-header";
import { TemplateCard } from "~/components/template-card";
import { appUrl } from "~/config.server";
import { FieldNotes } from "~/components/forms";
import { marketplacePricingTiers } from "~/domain/templates/filter-choices.server";
import { listMarketplaceTemplates } from "~/domain/templates/marketplace.server";
import { marketplaceQuery } from "~/domain/templates/templates.schema";
import { queryToObject } from "~/http/api/body.server";
import { getUiActor } from "~/http/ui/ui.server";
import { seo } from "~/utils/seo";
import { plural } from "~/utils/plural";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  seo({
    title: "PRD template marketplace · PRD Studio",
    description:
      "Proven product requirements templates for every kind of feature: standard PRDs, lean one-pagers, API, mobile, B2B SaaS and AI features. Free to use.",
    url: data?.url,
  });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await getUiActor(request, context);
  const raw = Object.fromEntries(Object.entries(queryToObject(request.url)).filter(([, v]) => v !== ""));
  const pricingTiers = await marketplacePricingTiers();
  // A tier no listed template has (a hand-edited address): said next to the filter, and not applied.
  const asked = String(raw.pricingTier ?? "").trim();
  const pricingTierError =
    asked && !pricingTiers.includes(asked.toLowerCase()) ? `No template on the marketplace has the pricing tier “${asked}”. Pick one from the list.` : null;
  if (pricingTierError) delete raw.pricingTier;
  const parsed = marketplaceQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : marketplaceQuery.parse({});
  const [result, all] = await Promise.all([listMarketplaceTemplates(actor, query), listMarketplaceTemplates(actor, marketplaceQuery.parse({ limit: 100 }))]);
  return {
    ...result,
    pricingTiers,
    pricingTierError,
    categories: [...new Set(all.templates.map((t) => t.category))].sort(),
    signedIn: Boolean(actor),
    filtered: Boolean(pricingTierError) || ["category", "search", "featured", "pricingTier"].some((k) => raw[k]),
    url: `${appUrl()}/marketplace`,
  };
}

/** "free" → "Free": tiers are stored lower-case. */
const tierLabel = (tier: string) => tier.charAt(0).toUpperCase() + tier.slice(1);

export default function Marketplace() {
  const { templates, total, categories, pricingTiers, pricingTierError, signedIn, filtered } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <div className="landing">
      <PublicHeader signedIn={signedIn} />
      <main id="main">
        <section className="hero" style={{ padding: "48px 0 28px" }}>
          <h1>PRD templates that get features shipped</h1>
          <p>Start from a structure product teams trust, then let PRD Studio ask the right questions and draft it with you.</p>
        </section>
        <TemplateFilters categories={categories} clearHref="/marketplace" filtered={filtered} placeholder="e.g. mobile, API, onboarding">
          <div className="field">
            <label htmlFor="m-sort">Sort</label>
            <select id="m-sort" name="sort" defaultValue={params.get("sort") ?? "popular"}>
              <option value="popular">Most used</option>
              <option value="newest">Newest</option>
              <option value="name">Name</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="m-pricing">Pricing tier</label>
            <select
              id="m-pricing"
              name="pricingTier"
              defaultValue={pricingTierError ? "" : (params.get("pricingTier")?.toLowerCase() ?? "")}
              aria-invalid={pricingTierError ? true : undefined}
              aria-describedby={pricingTierError ? "m-pricing-error" : undefined}
            >
              <option value="">Any</option>
              {pricingTiers.map((tier) => (
                <option key={tier} value={tier}>
                  {tierLabel(tier)}
                </option>
              ))}
            </select>
            <FieldNotes id="m-pricing" error={pricingTierError ?? undefined} />
          </div>
          <label className="checkbox">
            <input type="checkbox" name="featured" value="true" defaultChecked={params.get("featured") === "true"} /> Featured only
          </label>
        </TemplateFilters>
        <p className="muted">{plural(total, "template")}</p>
        {templates.length === 0 ? (
          <div className="card empty-state">
            <h2>No templates match</h2>
            <p>Try another search or clear the filters.</p>
          </div>
        ) : (
          <div className="template-grid">
            {templates.map((t) => (
              <TemplateCard key={t.id} t={t} href={`/marketplace/${t.id}`} />
            ))}
          </div>
        )}
      </main>
    </div>
  );
}
