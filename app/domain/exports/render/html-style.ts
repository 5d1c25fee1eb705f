/**
 * The inline stylesheet of an HTML export: system fonts only (no web font,
 * no @import), branded by the primary colour, printable (@page, no breaks
 * inside tables, code, figures; headings kept with what follows).
 */

export const safeColor = (value: string, fallback: string) => (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : fallback);

export function exportCss(primary: string, accent: string): string {
  const p = safeColor(primary, "#4f46e5");
  const a = safeColor(accent, "#0ea5e9");
  return `
:root { --brand: ${p}; --accent: ${a}; --text: #1f2937; --muted: #6b7280; --line: #e5e7eb; --soft: #f9fafb; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: #fff; color: var(--text); font: 16px/1.6 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.page { max-width: 860px; margin: 0 auto; padding: 32px 24px 48px; }
.brand-bar { display: flex; align-items: center; gap: 12px; padding-bottom: 12px; border-bottom: 4px solid var(--brand); }
.brand-bar img { max-height: 48px; max-width: 200px; width: auto; height: auto; }
.brand-bar .company { font-weight: 600; font-size: 1.05rem; color: var(--brand); }
.title-block { margin: 32px 0 24px; }
.title-block h1 { font-size: 2.2rem; line-height: 1.2; margin: 0 0 8px; color: var(--text); border: 0; }
.title-block .subtitle { margin: 0 0 4px; font-size: 1.1rem; color: var(--muted); }
.title-block .generated { margin: 0; font-size: .9rem; color: var(--muted); }
nav.toc { margin: 0 0 32px; padding: 16px 20px; background: var(--soft); border-left: 4px solid var(--accent); border-radius: 4px; }
nav.toc h2 { margin: 0 0 8px; font-size: 1rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); border: 0; }
nav.toc ol { margin: 0; padding-left: 20px; }
nav.toc ol ol { padding-left: 18px; }
nav.toc a { color: var(--text); text-decoration: none; }
nav.toc a:hover { color: var(--brand); text-decoration: underline; }
.prd h1, .prd h2, .prd h3, .prd h4, .prd h5, .prd h6 { line-height: 1.25; margin: 1.6em 0 .6em; color: var(--text); }
.prd h1 { font-size: 1.8rem; color: var(--brand); border-bottom: 2px solid var(--line); padding-bottom: .2em; }
.prd h2 { font-size: 1.45rem; color: var(--brand); border-bottom: 1px solid var(--line); padding-bottom: .15em; }
.prd h3 { font-size: 1.2rem; }
.prd h4 { font-size: 1.05rem; }
.prd a { color: var(--brand); }
.prd img { max-width: 100%; height: auto; }
.prd p > img:only-child { display: block; margin: 0 auto; }
.prd blockquote { margin: 1em 0; padding: .2em 1em; color: #374151; border-left: 4px solid var(--accent); background: var(--soft); }
.prd code { font: .9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; background: #f3f4f6; padding: .1em .3em; border-radius: 3px; }
.prd pre { background: #f3f4f6; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; overflow-x: auto; white-space: pre-wrap; word-wrap: break-word; }
.prd pre code { background: none; padding: 0; font-size: .85em; }
.prd ul, .prd ol { padding-left: 1.6em; }
.prd li { margin: .2em 0; }
.prd li > input[type=checkbox] { margin-right: .4em; }
.table-wrap { overflow-x: auto; margin: 1em 0; }
.prd table { border-collapse: collapse; width: 100%; font-size: .95em; }
.prd th, .prd td { border: 1px solid var(--line); padding: 6px 10px; text-align: left; vertical-align: top; }
.prd th[align=center], .prd td[align=center] { text-align: center; }
.prd th[align=right], .prd td[align=right] { text-align: right; }
.prd thead th { background: var(--brand); color: #fff; }
.prd tbody tr:nth-child(even) td { background: var(--soft); }
.prd hr { border: 0; border-top: 1px solid var(--line); margin: 2em 0; }
.image-missing { display: inline-block; padding: 2px 8px; border: 1px dashed #9ca3af; border-radius: 4px; color: var(--muted); font-style: italic; font-size: .9em; }
figure.diagram { margin: 1.2em 0; text-align: center; }
figure.diagram svg { max-width: 100%; height: auto; }
.diagram-fallback { margin: 1.2em 0; padding: 12px 14px; border: 2px dashed #d97706; border-radius: 6px; background: #fffbeb; }
.diagram-fallback p { margin: 0 0 8px; color: #92400e; }
.diagram-fallback pre { margin: 0; background: #fff; }
footer.doc-footer { margin-top: 48px; padding-top: 12px; border-top: 1px solid var(--line); font-size: .8rem; color: var(--muted); display: flex; justify-content: space-between; gap: 12px; }
@page { size: A4; margin: 18mm 16mm; }
@media print {
  body { font-size: 11pt; }
  .page { max-width: none; padding: 0; }
  nav.toc { break-after: page; page-break-after: always; background: none; }
  h1, h2, h3, h4, h5, h6 { break-after: avoid; page-break-after: avoid; break-inside: avoid; }
  table, pre, figure, blockquote, img, .diagram-fallback { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  .table-wrap { overflow: visible; }
  .prd pre { white-space: pre-wrap; }
  .prd thead th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  a { color: inherit; }
}
`.trim();
}
