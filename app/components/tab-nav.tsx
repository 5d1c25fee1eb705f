import { NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

export interface Tab {
  to: string;
  label: string;
  /** Active only on this exact path (an index tab such as /settings). */
  end?: boolean;
}

/**
 * A row of page tabs (a project, the settings and administration areas); the current one is marked active.
 * On a narrow screen the row scrolls sideways (responsive.css); with JavaScript the current tab is scrolled into view.
 */
export function TabNav({ label, tabs }: { label: string; tabs: Tab[] }) {
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger (another tab became current), not a value read here
  useEffect(() => {
    const bar = nav.current;
    const active = bar?.querySelector<HTMLElement>("a.active");
    if (!bar || !active || bar.scrollWidth <= bar.clientWidth) return;
    // Centred in the row (offsetLeft is from the row: it is positioned on narrow screens).
    bar.scrollLeft = active.offsetLeft - (bar.clientWidth - active.offsetWidth) / 2;
  }, [pathname]);

  return (
    <nav className="tabs" aria-label={label} ref={nav}>
      {tabs.map((t) => (
        <NavLink key={t.to} to={t.to} end={t.end} className={({ isActive }) => (isActive ? "active" : undefined)}>
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}
