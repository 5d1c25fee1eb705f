import { Form } from "@remix-run/react";
import type { FormState } from "../forms";
import { FieldNotes } from "../forms";

/**
 * Asks a named stakeholder for a review: their personal link is made with the
 * request, can be the only way to decide it, and can be mailed at once.
 * Posts `view-create`; errors come back beside their fields, with the values.
 */
export function ReviewRequestForm({ failure }: { failure: FormState | null }) {
  const errors = failure?.fieldErrors ?? {};
  const values = failure?.values;
  // After a failed post the checkboxes keep what was sent; on a fresh form "only the personal link" is on.
  const checked = (name: string, fresh: boolean) => (values ? values[name] === "on" || values[name] === "true" : fresh);
  const text = (
    id: string,
    name: string,
    label: string,
    options: { type?: string; required?: boolean; hint?: string; placeholder?: string; autoComplete?: string } = {},
  ) => {
    const error = errors[name];
    const described = [options.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          type={options.type ?? "text"}
          required={options.required}
          maxLength={200}
          placeholder={options.placeholder}
          autoComplete={options.autoComplete ?? "off"}
          defaultValue={values?.[name] ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
        <FieldNotes id={id} hint={options.hint} error={error} />
      </div>
    );
  };
  return (
    <Form method="post" className="form review-request-form" aria-labelledby="review-request-heading">
      <h3 id="review-request-heading">Ask someone to review</h3>
      <input type="hidden" name="intent" value="view-create" />
      <input type="hidden" name="requestReview" value="true" />
      <div className="form-row">
        {text("view-name", "name", "What to review", { required: true, placeholder: "Legal sign-off" })}
        {text("view-stakeholder", "stakeholderName", "Reviewer's name", { required: true, placeholder: "Dana Lee", autoComplete: "off" })}
      </div>
      <div className="form-row">
        {text("view-audience", "audience", "Role or team (optional)", { placeholder: "Head of Sales" })}
        {text("view-email", "stakeholderEmail", "Reviewer's e-mail (optional)", { type: "email", hint: "Needed to send the link by e-mail." })}
      </div>
      <fieldset className="field review-options">
        <legend>Link</legend>
        <label className="review-option">
          <input type="checkbox" name="personalLinkOnly" defaultChecked={checked("personalLinkOnly", true)} aria-describedby="view-only-hint" />
          Only the reviewer's personal link can decide
          <span className="hint" id="view-only-hint">
            Visitors of the share link see the request but cannot approve it or request changes.
          </span>
        </label>
        <label className="review-option">
          <input
            type="checkbox"
            name="sendLink"
            defaultChecked={checked("sendLink", false)}
            aria-describedby={`view-send-hint${errors.sendLink ? " view-send-error" : ""}`}
            aria-invalid={errors.sendLink ? true : undefined}
          />
          Send the link by e-mail
          <span className="hint" id="view-send-hint">
            Mails the personal link to the address above. A decision made through a mailed link shows as confirmed by e-mail.
          </span>
        </label>
        {errors.sendLink ? (
          <p className="field-error" id="view-send-error">
            {errors.sendLink}
          </p>
        ) : null}
      </fieldset>
      <div>
        <button type="submit" className="btn btn-secondary btn-sm">
          Request review
        </button>
      </div>
    </Form>
  );
}
