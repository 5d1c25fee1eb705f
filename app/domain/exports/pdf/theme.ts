import type { ExportBranding } from "../document";
import type { FaceName } from "./fonts.server";

/** Page geometry, type sizes and colours of the PDF export (A4, points). */

export type Rgb = readonly [number, number, number];

export interface TextStyle {
  face: FaceName;
  size: number;
  color: Rgb;
  /** http(s) or mailto target: drawn underlined, with a link annotation. */
  link?: string;
  strike?: boolean;
  /** Inline code: light background behind the text. */
  code?: boolean;
}

export const PAGE = {
  width: 595.28,
  height: 841.89,
  left: 56,
  right: 56,
  top: 70,
  bottom: 64,
} as const;

export const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
export const CONTENT_TOP = PAGE.height - PAGE.top;
export const CONTENT_BOTTOM = PAGE.bottom;

export const BODY_SIZE = 10;
export const LEADING = 1.45;
export const CODE_SIZE = 8.5;
export const CODE_LEADING = 1.35;
export const TABLE_SIZE = 8.8;
export const HEADING_SIZES = [20, 15.5, 12.5, 11, 10.5, 10] as const;

export const GREY = {
  text: [0.12, 0.13, 0.16] as Rgb,
  muted: [0.4, 0.42, 0.47] as Rgb,
  rule: [0.8, 0.82, 0.86] as Rgb,
  codeBg: [0.955, 0.96, 0.97] as Rgb,
  zebra: [0.975, 0.978, 0.985] as Rgb,
  white: [1, 1, 1] as Rgb,
};

export interface Theme {
  primary: Rgb;
  accent: Rgb;
  /** Primary/accent darkened when too light to read as text on white. */
  primaryText: Rgb;
  link: Rgb;
  /** Primary mixed into white: table header and diagram fallback backgrounds. */
  tint: Rgb;
  companyName: string | null;
}

const DEFAULT_PRIMARY: Rgb = [0.31, 0.275, 0.898];

export function parseHex(hex: string | null | undefined, fallback: Rgb = DEFAULT_PRIMARY): Rgb {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec((hex ?? "").trim());
  if (!match) return fallback;
  let digits = match[1]!;
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join("");
  const n = Number.parseInt(digits, 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** Darkens a colour until it reads on white (relative luminance ≤ 0.35). */
export function readable(color: Rgb): Rgb {
  const lum = (c: Rgb) => 0.2126 * c[0] ** 2.2 + 0.7152 * c[1] ** 2.2 + 0.0722 * c[2] ** 2.2;
  let c = color;
  for (let i = 0; i < 20 && lum(c) > 0.35; i++) c = [c[0] * 0.9, c[1] * 0.9, c[2] * 0.9];
  return c;
}

export function mix(color: Rgb, amount: number): Rgb {
  return [1 - (1 - color[0]) * amount, 1 - (1 - color[1]) * amount, 1 - (1 - color[2]) * amount];
}

export function themeFor(branding: ExportBranding): Theme {
  const primary = parseHex(branding.primaryColor);
  const accent = parseHex(branding.accentColor, primary);
  const name = branding.companyName?.trim();
  return {
    primary,
    accent,
    primaryText: readable(primary),
    link: readable(accent),
    tint: mix(primary, 0.12),
    companyName: name ? name : null,
  };
}

export function headingStyle(depth: number, theme: Theme): TextStyle {
  const size = HEADING_SIZES[Math.min(Math.max(depth, 1), 6) - 1]!;
  return { face: "bold", size, color: depth <= 2 ? theme.primaryText : GREY.text };
}

export function bodyStyle(): TextStyle {
  return { face: "regular", size: BODY_SIZE, color: GREY.text };
}
