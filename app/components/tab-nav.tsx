import { NavLink } from "@remix-run/react";

export interface Tab {
  to: string;
  label: string;
  /** Active only on this exact path (an index tab such as /settings). */
  end?: boolean;
}

/** A row of page tabs (the settings and administration areas); the current one is marked active. */
export function TabNav({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <NavLink key={t.to} to={t.to} end={t.end} className={({ isActive }) => (isActive ? "active" : undefined)}>
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}
