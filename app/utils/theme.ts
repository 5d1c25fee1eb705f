import { z } from "zod/v4";

/**
 * The colour theme a person chose (docs/ui.md, "Themes"): "system" follows the
 * device's light or dark setting, "light" and "dark" pin one. Shared by the
 * root loader, the /theme route and the toggle.
 */
export const THEMES = ["system", "light", "dark"] as const;
export type ThemePreference = (typeof THEMES)[number];

export const themeSchema = z.enum(THEMES);

export const THEME_LABELS: Record<ThemePreference, string> = { system: "System", light: "Light", dark: "Dark" };

/** The `<meta name="color-scheme">` content for a preference. */
export const colorSchemeOf = (theme: ThemePreference) => (theme === "system" ? "light dark" : theme);
