import type { CSSProperties } from "react";

/** CSS variables (app.css: --brand, --brand-strong, --brand-soft) for an organization's colours; shared by the app shell, share pages. */
export function brandCssVars(branding: { primaryColor: string; accentColor?: string }): CSSProperties {
  const c = branding.primaryColor;
  const vars: Record<string, string> = {
    "--brand": c,
    "--brand-strong": `color-mix(in srgb, ${c} 85%, black)`,
    "--brand-soft": `color-mix(in srgb, ${c} 12%, white)`,
  };
  return vars as CSSProperties;
}
