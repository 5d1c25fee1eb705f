import type { Config, DOMPurify } from "dompurify";
import type { MermaidConfig } from "mermaid";

/**
 * How the browser draws Mermaid (docs/security.md, "Mermaid in the browser").
 * A diagram is PRD text anyone who can edit the PRD wrote, so:
 * - `securityLevel: "strict"`: Mermaid sanitizes labels, disables click
 *   callbacks and encodes tags in text;
 * - `htmlLabels: false`, here and for flowcharts: labels are SVG `<text>`,
 *   not HTML in a `<foreignObject>`, so `A["<img src=x onerror=…>"]` has no
 *   HTML to become (Mermaid used to put it in the page, where only the CSP
 *   stopped its handler);
 * - `secure`: keys a `%%{init: …}%%` directive inside a diagram may not
 *   change, so a diagram cannot turn HTML labels or a looser level back on.
 * The same settings as the export renderer (app/domain/exports/mermaid-child.ts).
 */
export const MERMAID_CONFIG = {
  startOnLoad: false,
  securityLevel: "strict",
  secure: [
    "secure",
    "securityLevel",
    "startOnLoad",
    "maxTextSize",
    "suppressErrorRendering",
    "maxEdges",
    "htmlLabels",
    "flowchart",
    "themeCSS",
    "fontFamily",
    "dompurifyConfig",
  ],
  theme: "neutral",
  htmlLabels: false,
  flowchart: { htmlLabels: false },
} satisfies MermaidConfig;

/** DOMPurify's SVG profile: SVG elements and attributes only; no `<foreignObject>` (HTML inside an SVG), no `<script>`, no handlers. */
export const SVG_PURIFY_OPTIONS = {
  USE_PROFILES: { svg: true, svgFilters: true },
  FORBID_TAGS: ["foreignObject", "script", "iframe", "object", "embed"],
} satisfies Config;

/**
 * The SVG Mermaid rendered, sanitized again before it is put in the page
 * (defence in depth: a Mermaid bug or a diagram type that ignores
 * `htmlLabels` cannot bring markup in). Fails closed: without a working
 * DOMPurify (no DOM), nothing is returned and the page shows the source.
 */
export function sanitizeMermaidSvg(svg: string, purify: DOMPurify): string {
  if (!purify.isSupported) return "";
  const clean = purify.sanitize(svg, SVG_PURIFY_OPTIONS);
  return clean.trimStart().startsWith("<svg") ? clean : "";
}
