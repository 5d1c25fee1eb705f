import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";

export interface FormState {
  /** Which form on the page failed, when a page has several. */
  intent?: string;
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

export function FormAlert({ state, tone = "error" }: { state?: FormState | null; tone?: "error" | "success" }) {
  if (!state?.formError) return null;
  return (
    <div className={`alert alert-${tone}`} role="alert" id="form-error">
      <p>{state.formError}</p>
    </div>
  );
}

export function Field({
  label,
  name,
  type = "text",
  state,
  hint,
  defaultValue,
  autoComplete,
  required,
  autoFocus,
  placeholder,
  min,
}: {
  label: string;
  name: string;
  type?: string;
  state?: FormState | null;
  hint?: ReactNode;
  defaultValue?: string;
  autoComplete?: string;
  required?: boolean;
  autoFocus?: boolean;
  placeholder?: string;
  min?: string;
}) {
  const error = state?.fieldErrors?.[name];
  const id = `field-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={state?.values?.[name] ?? defaultValue}
        autoComplete={autoComplete}
        required={required}
        // biome-ignore lint/a11y/noAutofocus: opt-in per field (autoFocus prop), for a page's first field.
        autoFocus={autoFocus}
        placeholder={placeholder}
        min={min}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A field's hint and error message, with the ids its control's aria-describedby points at. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A submit button that says what is happening while the form is in flight. */
export function SubmitButton({
  children,
  pendingText,
  className = "btn",
  name,
  value,
}: {
  children: ReactNode;
  pendingText?: string;
  className?: string;
  name?: string;
  value?: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && (!name || navigation.formData?.get(name) === value);
  return (
    <button type="submit" className={className} disabled={pending} name={name} value={value} aria-busy={pending || undefined}>
      {pending ? (pendingText ?? "Working…") : children}
    </button>
  );
}

/** A one-time message after a redirect (a flash): success by default, `error` is announced as an alert. */
export function Notice({ message, tone = "success" }: { message: string | null | undefined; tone?: "success" | "info" | "error" }) {
  if (!message) return null;
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      <p>{message}</p>
    </div>
  );
}
