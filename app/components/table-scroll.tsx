import type { ReactNode } from "react";

/**
 * The box of a data table: on a screen narrower than the table, the table
 * scrolls sideways inside it instead of widening the page (docs/ui.md,
 * "Small screens"). A named region that takes focus, so keyboard users can
 * scroll it with the arrow keys and screen readers announce what it holds.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus so it can be scrolled from the keyboard (WCAG 2.1.1)
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
