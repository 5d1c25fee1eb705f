import fs from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The palettes of app/styles/app.css (docs/ui.md, "Themes"): the dark palette
 * is written twice (chosen with data-theme="dark", and from the system in a
 * media query), and every pair of text and background colours the components
 * use must reach WCAG AA (4.5:1) in both themes.
 */

const css = fs.readFileSync("app/styles/app.css", "utf8");

/** The custom properties declared in the first block opened by `opening`. */
function block(opening: string): Map<string, string> {
  const start = css.indexOf(opening);
  expect(start, opening).toBeGreaterThanOrEqual(0);
  const body = css.slice(start + opening.length, css.indexOf("}", start));
  const vars = new Map<string, string>();
  for (const [, name, value] of body.matchAll(/(--[\w-]+):\s*([^;]+);/g)) vars.set(name!, value!.trim());
  return vars;
}

const light = block(":root {");
const dark = block(':root[data-theme="dark"] {');
const systemDark = block('@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {');

function luminance(hex: string) {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = Number.parseInt(m[1]!.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/** [text, background] as the components pair them. */
const TEXT_PAIRS: [string, string][] = [
  ...[
    "--bg",
    "--surface",
    "--surface-2",
    "--brand-soft",
    "--danger-soft",
    "--success-soft",
    "--warning-soft",
    "--quote-bg",
    "--diff-added",
    "--diff-removed",
  ].map((bg): [string, string] => ["--text", bg]),
  ["--muted", "--bg"],
  ["--muted", "--surface"],
  ["--muted", "--surface-2"],
  ["--brand", "--bg"],
  ["--brand", "--surface"],
  ["--brand", "--surface-2"],
  ["--brand-strong", "--brand-soft"],
  ["--danger", "--surface"],
  ["--danger", "--danger-soft"],
  ["--success", "--surface"],
  ["--success", "--success-soft"],
  ["--warning", "--surface"],
  ["--warning", "--warning-soft"],
  ["--danger-text", "--danger-soft"],
  ["--success-text", "--success-soft"],
  ["--warning-text", "--warning-soft"],
  ["--info-text", "--brand-soft"],
  ["--mark-text", "--mark-bg"],
  ["--anchor-active-text", "--anchor-active-bg"],
  ["--sidebar-text", "--sidebar-bg"],
  ["--sidebar-muted", "--sidebar-bg"],
  ["--sidebar-strong", "--sidebar-bg"],
];

describe("theme palettes (app.css)", () => {
  it("writes the dark palette the same way for a chosen and a system dark theme", () => {
    expect(dark.size).toBeGreaterThan(20);
    expect(Object.fromEntries(systemDark)).toEqual(Object.fromEntries(dark));
  });

  it("gives the dark palette a value for every colour of the light one", () => {
    const colours = [...light].filter(([, v]) => /^#|^rgb|transparent/.test(v)).map(([k]) => k);
    expect(colours.filter((name) => !dark.has(name))).toEqual([]);
  });

  it("reaches WCAG AA (4.5:1) for every text colour on its background, in both themes", () => {
    const failures: string[] = [];
    for (const [name, palette] of [
      ["light", light],
      ["dark", dark],
    ] as const) {
      // The light theme's white on a brand fill; the dark theme names its fill.
      const fill = palette.get("--brand-fill") ?? palette.get("--brand")!;
      const pairs: [string, string, string, string][] = TEXT_PAIRS.map(([t, b]) => [t, b, palette.get(t)!, palette.get(b) ?? light.get(b)!]);
      pairs.push(["--on-fill", "--brand-fill", palette.get("--on-fill")!, fill]);
      // The diagram box: light in the dark theme, the page's surface in the light one.
      const diagramBg = palette.get("--diagram-bg")!.startsWith("#") ? palette.get("--diagram-bg")! : palette.get("--surface")!;
      pairs.push(["--diagram-text", "--diagram-bg", palette.get("--diagram-text")!, diagramBg]);
      for (const [t, b, tv, bv] of pairs) {
        const ratio = contrast(tv, bv);
        if (ratio < 4.5) failures.push(`${name}: ${t} ${tv} on ${b} ${bv} = ${ratio.toFixed(2)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
