import { Form } from "@remix-run/react";
import { FieldNotes, FormAlert, type FormState, SubmitButton } from "./forms";

/**
 * The platform superadmin's fields of a template (`PATCH /api/admin/templates/{id}`:
 * isActive, isFeatured, pricingTier), posted with intent `listing` to the
 * template page. Shown only to superadmins; the domain refuses the post from
 * anyone else.
 */
export function TemplateListingForm({
  template,
  state,
  pricingTiers,
}: {
  template: { isActive: boolean; isFeatured: boolean; pricingTier: string };
  /** The page's form state when the listing form failed, else null. */
  state: FormState | null;
  /** Tiers already in use, offered as suggestions. */
  pricingTiers: string[];
}) {
  const failed = state?.values;
  const active = failed ? failed.isActive === "true" : template.isActive;
  const featured = failed ? failed.isFeatured === "true" : template.isFeatured;
  const tierError = state?.fieldErrors?.pricingTier;
  return (
    <section className="card" aria-labelledby="listing-heading">
      <h2 id="listing-heading">Platform listing</h2>
      <p className="muted">Only platform superadmins see and change these.</p>
      <FormAlert state={state} />
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="listing" />
        <label className="checkbox" htmlFor="listing-active">
          <input type="checkbox" id="listing-active" name="isActive" value="true" defaultChecked={active} aria-describedby="listing-active-hint" />
          Active
        </label>
        <span className="hint" id="listing-active-hint">
          An inactive template is hidden from the template lists and the marketplace.
        </span>
        <label className="checkbox" htmlFor="listing-featured">
          <input type="checkbox" id="listing-featured" name="isFeatured" value="true" defaultChecked={featured} aria-describedby="listing-featured-hint" />
          Featured
        </label>
        <span className="hint" id="listing-featured-hint">
          Featured templates are listed first and carry a Featured badge.
        </span>
        <div className="field">
          <label htmlFor="listing-pricingTier">Pricing tier</label>
          <input
            id="listing-pricingTier"
            name="pricingTier"
            list="listing-pricing-tiers"
            defaultValue={failed?.pricingTier ?? template.pricingTier}
            maxLength={40}
            required
            aria-invalid={tierError ? true : undefined}
            aria-describedby={tierError ? "listing-pricingTier-hint listing-pricingTier-error" : "listing-pricingTier-hint"}
          />
          <datalist id="listing-pricing-tiers">
            {pricingTiers.map((tier) => (
              <option key={tier} value={tier} />
            ))}
          </datalist>
          <FieldNotes
            id="listing-pricingTier"
            hint="A word such as free or premium (1–40 characters, stored in lower case); the marketplace filters by it."
            error={tierError}
          />
        </div>
        <div>
          <SubmitButton pendingText="Saving…">Save listing</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
