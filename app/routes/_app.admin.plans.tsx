import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PlanCard, SALES_MAILTO } from "~/components/billing/plan-card";
import { FormAlert, SubmitButton } from "~/components/forms";
import { appUrl } from "~/config.server";
import { isAdmin } from "~/domain/actor";
import { startCheckout } from "~/domain/billing/checkout.server";
import { pricingTiers } from "~/domain/billing/pricing";
import { stripePriceId } from "~/domain/billing/providers/stripe.server";
import { checkoutBody } from "~/http/api/contracts/billing";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Plans · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const cancelled = new URL(request.url).searchParams.get("checkout") === "cancelled";
  return { tiers: pricingTiers(stripePriceId), currentPlan: actor.org.plan, canChange: isAdmin(actor), cancelled };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const { checkoutUrl } = await startCheckout(actor, checkoutBody.parse(values), appUrl());
    return redirect(checkoutUrl);
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function Plans() {
  const { tiers, currentPlan, canChange, cancelled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && "formError" in result ? result : null;
  const interval = state?.values?.interval === "annual" ? "annual" : "monthly";
  return (
    <div className="stack">
      <div className="card-header">
        <h2>Plans</h2>
        <p className="muted">Prices in USD, flat per organization. Annual billing gives two months free.</p>
      </div>
      {cancelled ? (
        <div className="alert alert-info" role="status">
          <p>Checkout cancelled: your plan did not change.</p>
        </div>
      ) : null}
      <FormAlert state={state} />
      <Form method="post" className="stack">
        <fieldset className="field">
          <legend>Billing interval</legend>
          <label>
            <input type="radio" name="interval" value="monthly" defaultChecked={interval === "monthly"} /> Monthly
          </label>{" "}
          <label>
            <input type="radio" name="interval" value="annual" defaultChecked={interval === "annual"} /> Annual (2 months free)
          </label>
        </fieldset>
        <div className="template-grid">
          {tiers.map((tier) => (
            <PlanCard key={tier.id} tier={tier} current={tier.id === currentPlan}>
              {tier.id === currentPlan ? null : tier.contactSales ? (
                <a className="btn btn-secondary" href={SALES_MAILTO}>
                  Contact sales
                </a>
              ) : canChange ? (
                <SubmitButton className="btn btn-primary" name="planId" value={tier.id} pendingText="Opening checkout…">
                  {`Choose ${tier.name}`}
                </SubmitButton>
              ) : null}
            </PlanCard>
          ))}
        </div>
      </Form>
    </div>
  );
}
