import { Form } from "@remix-run/react";
import { Field, type FormState, SubmitButton } from "./forms";

export interface TemplateFormValues {
  name: string;
  description: string;
  category: string;
  initialQuestion: string;
  systemPrompt: string;
  sections: string[];
  tags: string[];
  features: string[];
}

/** Create and edit form of a template; lists are one item per line. */
export function TemplateForm({
  initial,
  state,
  types,
  submitLabel,
  protectedPrompt,
}: {
  initial?: TemplateFormValues;
  state?: FormState | null;
  types?: { value: string; label: string }[];
  submitLabel: string;
  protectedPrompt?: boolean;
}) {
  const v = (name: keyof TemplateFormValues) => {
    const value = state?.values?.[name] ?? initial?.[name];
    return Array.isArray(value) ? value.join("\n") : (value ?? "");
  };
  const area = (name: keyof TemplateFormValues, label: string, rows: number, hint?: string) => (
    <div className="field">
      <label htmlFor={`tpl-${name}`}>{label}</label>
      <textarea id={`tpl-${name}`} name={name} rows={rows} defaultValue={v(name)} aria-describedby={hint ? `tpl-${name}-hint` : undefined} />
      {hint ? (
        <span className="hint" id={`tpl-${name}-hint`}>
          {hint}
        </span>
      ) : null}
      {state?.fieldErrors?.[name] ? <p className="field-error">{state.fieldErrors[name]}</p> : null}
    </div>
  );
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value="save" />
      <Field label="Name" name="name" state={state} defaultValue={v("name")} required />
      {area("description", "Description", 2, "When should someone pick this template?")}
      <div className="form-row">
        <Field label="Category" name="category" state={state} defaultValue={v("category") || "general"} required />
        {types ? (
          <div className="field">
            <label htmlFor="tpl-type">Available to</label>
            <select id="tpl-type" name="templateType" defaultValue={state?.values?.templateType ?? types[0]?.value}>
              {types.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      {area("sections", "Sections", 8, "One section heading per line, in order.")}
      {area("initialQuestion", "First question the AI asks", 2)}
      {protectedPrompt ? (
        <p className="muted">The system prompt of built-in and marketplace templates is protected.</p>
      ) : (
        area("systemPrompt", "System prompt", 8, "Instructions that shape how the AI writes a PRD from this template.")
      )}
      {area("tags", "Tags", 2, "One per line or comma-separated.")}
      {area("features", "Highlights", 3, "Short selling points shown in the gallery, one per line.")}
      <div>
        <SubmitButton pendingText="Saving…">{submitLabel}</SubmitButton>
      </div>
    </Form>
  );
}
