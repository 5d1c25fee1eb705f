import { useNavigation } from "@remix-run/react";
import { type ReactNode, useEffect, useRef } from "react";
import { FieldNotes, type FormState } from "~/components/forms";

/**
 * Labelled form controls with an explicit id, for pages that hold several
 * forms with the same field names (the shared `Field` derives its id from the
 * name). Errors come from the server (no-JS first) and are tied to the
 * control with aria-invalid and aria-describedby.
 */

interface ControlProps {
  id: string;
  label: string;
  name: string;
  state?: FormState | null;
  hint?: ReactNode;
  /** Field error key when it differs from `name` (e.g. nested zod paths). */
  errorKey?: string;
  required?: boolean;
}

function describe(id: string, hint: ReactNode, error: string | undefined) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function Frame({ id, label, hint, error, children }: { id: string; label: string; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

const errorOf = (state: FormState | null | undefined, key: string) => state?.fieldErrors?.[key];

export function TextControl({
  type = "text",
  autoComplete,
  placeholder,
  defaultValue,
  min,
  max,
  ...p
}: ControlProps & { type?: string; autoComplete?: string; placeholder?: string; defaultValue?: string; min?: string; max?: string }) {
  const error = errorOf(p.state, p.errorKey ?? p.name);
  // Password inputs never get a value back from the server.
  const value = type === "password" ? undefined : (p.state?.values?.[p.name] ?? defaultValue);
  return (
    <Frame id={p.id} label={p.label} hint={p.hint} error={error}>
      <input
        id={p.id}
        name={p.name}
        type={type}
        defaultValue={value}
        autoComplete={autoComplete}
        placeholder={placeholder}
        required={p.required}
        min={min}
        max={max}
        aria-invalid={error ? true : undefined}
        aria-describedby={describe(p.id, p.hint, error)}
      />
    </Frame>
  );
}

export function SelectControl({ options, defaultValue, ...p }: ControlProps & { options: { value: string; label: string }[]; defaultValue?: string }) {
  const error = errorOf(p.state, p.errorKey ?? p.name);
  return (
    <Frame id={p.id} label={p.label} hint={p.hint} error={error}>
      <select
        id={p.id}
        name={p.name}
        defaultValue={p.state?.values?.[p.name] ?? defaultValue}
        required={p.required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describe(p.id, p.hint, error)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function TextareaControl({ rows = 4, placeholder, defaultValue, ...p }: ControlProps & { rows?: number; placeholder?: string; defaultValue?: string }) {
  const error = errorOf(p.state, p.errorKey ?? p.name);
  return (
    <Frame id={p.id} label={p.label} hint={p.hint} error={error}>
      <textarea
        id={p.id}
        name={p.name}
        rows={rows}
        placeholder={placeholder}
        defaultValue={p.state?.values?.[p.name] ?? defaultValue}
        required={p.required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describe(p.id, p.hint, error)}
      />
    </Frame>
  );
}

/** The form's own failure, shown only on the form that was submitted. */
export function formStateFor(state: FormState | null | undefined, intents: string[]) {
  return state && state.intent && intents.includes(state.intent) ? state : null;
}

export const shortDate = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium" }) : null);

/**
 * With JavaScript on, a form stays mounted across its own redirect; this
 * clears it after a successful submit (so a typed API key does not linger),
 * as a full page load does without JavaScript. Failed submits keep the input.
 */
export function useResetAfterSuccess(intent: string, failed: boolean) {
  const ref = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy && !failed) ref.current?.reset();
    wasBusy.current = busy;
  }, [busy, failed]);
  return ref;
}
