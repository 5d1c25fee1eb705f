import { useLocation } from "@remix-run/react";
import { type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";

/**
 * The signed-in shell's navigation behind a "Menu" button on narrow screens
 * (docs/ui.md, "Small screens"). A <details> disclosure, so it opens and
 * closes without JavaScript; on wide screens responsive.css hides the button
 * and shows the contents whether the disclosure is open or not (the sidebar).
 * With JavaScript it closes after each navigation and on Escape.
 */
export function AppMenu({ children }: { children: ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger (a new page closes the menu), not a value read here
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.key]);

  function onKeyDown(event: KeyboardEvent<HTMLDetailsElement>) {
    if (event.key !== "Escape" || !menu.current?.open) return;
    menu.current.open = false;
    menu.current.querySelector("summary")?.focus();
  }

  return (
    <details className="app-menu" ref={menu} onKeyDown={onKeyDown}>
      <summary className="app-menu-button">Menu</summary>
      <div className="app-menu-panel">{children}</div>
    </details>
  );
}
