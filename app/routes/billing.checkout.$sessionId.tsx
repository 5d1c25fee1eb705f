import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton } from "~/components/forms";
import { cancelLocalCheckout, confirmLocalCheckout, getLocalCheckout } from "~/domain/billing/checkout.server";
import { PLAN_NAMES, PLAN_PRICES } from "~/domain/billing/plans";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Confirm plan change · PRD Studio" }];

/** The local provider's checkout: an owner confirms (or cancels) the plan change. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const checkout = await orPageError(getLocalCheckout(actor, params.sessionId ?? ""));
  return {
    checkout: {
      id: checkout.id,
      planId: checkout.planId,
      interval: checkout.interval,
      status: checkout.status,
      expiresAt: checkout.expiresAt,
    },
    currentPlan: checkout.currentPlan,
    isOwner: actor.role === "owner",
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const id = params.sessionId ?? "";
  try {
    if (values.intent === "cancel") {
      await cancelLocalCheckout(actor, id);
      return redirect("/admin/plans");
    }
    await confirmLocalCheckout(actor, id);
    return redirect("/admin/billing?changed=1");
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function ConfirmCheckout() {
  const { checkout, currentPlan, isOwner } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const price = PLAN_PRICES[checkout.planId];
  const amount = price ? `$${price[checkout.interval]} per ${checkout.interval === "annual" ? "year" : "month"}` : "Custom";
  return (
    <main className="auth-page" id="main">
      <div className="auth-card card stack">
        <h1>{`Change plan to ${PLAN_NAMES[checkout.planId]}`}</h1>
        <FormAlert state={result && "formError" in result ? result : null} />
        <dl>
          <dt>Current plan</dt>
          <dd>{PLAN_NAMES[currentPlan]}</dd>
          <dt>New plan</dt>
          <dd>
            {PLAN_NAMES[checkout.planId]}, billed {checkout.interval}
          </dd>
          <dt>Price</dt>
          <dd>{amount} (flat per organization)</dd>
        </dl>
        {checkout.status !== "pending" ? (
          <div className="alert alert-info" role="status">
            <p>
              {`This checkout is ${checkout.status}.`} <Link to="/admin/plans">Back to plans</Link>
            </p>
          </div>
        ) : isOwner ? (
          <>
            <p className="muted">
              No payment is taken on this server: confirming changes the plan at once. The link expires{" "}
              {new Date(checkout.expiresAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}.
            </p>
            <div className="inline">
              <Form method="post">
                <input type="hidden" name="intent" value="confirm" />
                <SubmitButton className="btn btn-primary" pendingText="Changing plan…">
                  Confirm and switch to {PLAN_NAMES[checkout.planId]}
                </SubmitButton>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="cancel" />
                <SubmitButton className="btn btn-secondary" pendingText="Cancelling…">
                  Cancel
                </SubmitButton>
              </Form>
            </div>
          </>
        ) : (
          <div className="alert alert-info" role="status">
            <p>Only an owner of the organization can confirm a plan change. Send this page’s link to an owner.</p>
          </div>
        )}
      </div>
    </main>
  );
}
