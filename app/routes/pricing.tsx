import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PlanCard, SALES_MAILTO } from "~/components/billing/plan-card";
import { PublicHeader } from "~/components/public-header";
import { appUrl } from "~/config.server";
import { pricingTiers } from "~/domain/billing/pricing";
import { getUiActor } from "~/http/ui/ui.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  seo({
    title: "Pricing · PRD Studio",
    description: "Free for one product manager; Starter, Pro and Enterprise plans for teams. Flat price per organization, two months free with annual billing.",
    url: data?.url,
  });

/** Public pricing: the same plan table that drives limits and GET /api/pricing. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await getUiActor(request, context);
  return {
    tiers: pricingTiers(() => null),
    signedIn: Boolean(actor),
    currentPlan: actor?.org.plan ?? null,
    url: `${appUrl()}/pricing`,
  };
}

export default function Pricing() {
  const { tiers, signedIn, currentPlan } = useLoaderData<typeof loader>();
  return (
    <div className="landing">
      <PublicHeader signedIn={signedIn} />
      <main id="main">
        <section className="hero" style={{ padding: "48px 0 28px" }}>
          <h1>Simple pricing for product teams</h1>
          <p>One flat price per organization, not per seat. Start free; upgrade when your team grows. Annual billing gives two months free.</p>
        </section>
        <div className="template-grid">
          {tiers.map((tier) => (
            <PlanCard key={tier.id} tier={tier} current={tier.id === currentPlan}>
              {tier.contactSales ? (
                <a className="btn btn-secondary" href={SALES_MAILTO}>
                  Contact sales
                </a>
              ) : signedIn ? (
                tier.id === currentPlan ? null : (
                  <Link className="btn" to="/admin/plans">
                    {`Choose ${tier.name}`}
                  </Link>
                )
              ) : (
                <Link className="btn" to={tier.id === "free" ? "/sign-up" : "/sign-up?redirectTo=%2Fadmin%2Fplans"}>
                  {tier.id === "free" ? "Start for free" : `Start with ${tier.name}`}
                </Link>
              )}
            </PlanCard>
          ))}
        </div>
      </main>
    </div>
  );
}
