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

/**
 * Black or white, whichever reads better on `hex` (#rgb or #rrggbb; white for
 * anything else): the text of a swatch painted in an organization's own colour,
 * readable whatever colour was chosen (WCAG relative luminance).
 */
export function textOn(hex: string): "#000000" | "#ffffff" {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return "#ffffff";
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = Number.parseInt(h.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // The contrast ratio with black against the one with white.
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}
