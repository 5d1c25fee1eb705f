import type { ReactNode } from "react";

type Tier = {
  id: string;
  name: string;
  description: string;
  prices: { monthly: number; annual: number } | null;
  features: string[];
};

/** One plan: name, prices, what it includes, and the action the page offers (choose, sign up, contact). */
export function PlanCard({ tier, current = false, children }: { tier: Tier; current?: boolean; children?: ReactNode }) {
  return (
    <section className="card template-card" aria-labelledby={`plan-${tier.id}`}>
      <h3 id={`plan-${tier.id}`}>
        {tier.name} {current ? <span className="badge badge-brand">Current plan</span> : null}
      </h3>
      <p>
        {tier.prices ? (
          tier.prices.monthly === 0 ? (
            <strong>Free forever</strong>
          ) : (
            <>
              <strong>${tier.prices.monthly}</strong> / month or <strong>${tier.prices.annual}</strong> / year
            </>
          )
        ) : (
          <strong>Custom pricing</strong>
        )}
      </p>
      <p className="muted">{tier.description}</p>
      <ul className="check-list">
        {tier.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      {children}
    </section>
  );
}

export const SALES_MAILTO = "mailto:sales@example.com?subject=PRD%20Studio%20Enterprise";
