import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/** A one-button form that posts an intent and some hidden fields (works without JavaScript). */
export function PostButton({
  intent,
  fields = {},
  label,
  children,
  className = "btn btn-link",
}: {
  intent: string;
  fields?: Record<string, string>;
  /** Accessible name when the visible text is not enough ("Remove" → "Remove Ana"). */
  label?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className} aria-label={label}>
        {children}
      </button>
    </Form>
  );
}
