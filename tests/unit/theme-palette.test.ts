import fs from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The palette of app/styles/app.css (docs/ui.md, "Themes"): each colour is
 * written once as light-dark(light, dark), and every pair of text and
 * background colours the components use must reach WCAG AA (4.5:1) in both
 * themes.
 */

const css = fs.readFileSync("app/styles/app.css", "utf8");

/** The custom properties of the first `:root {` block, as written. */
function rootBlock(): Map<string, string> {
  const start = css.indexOf(":root {");
  expect(start).toBeGreaterThanOrEqual(0);
  const body = css.slice(start + ":root {".length, css.indexOf("}", start));
  const vars = new Map<string, string>();
  for (const [, name, value] of body.matchAll(/(--[\w-]+):\s*([^;]+);/g)) vars.set(name!, value!.trim());
  return vars;
}

/** One theme's value of each property: light-dark(a, b) → a or b; anything else is the same in both. */
function theme(vars: Map<string, string>, which: 0 | 1): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of vars) {
    const pair = /^light-dark\(\s*([^,]+?)\s*,\s*([^)]+?)\s*\)$/.exec(value);
    out.set(name, pair ? pair[1 + which]! : value);
  }
  return out;
}

const root = rootBlock();
const light = theme(root, 0);
const dark = theme(root, 1);

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
  it("writes each colour once, with its dark value beside the light one", () => {
    const themed = [...root].filter(([, v]) => v.startsWith("light-dark("));
    expect(themed.length).toBeGreaterThan(30);
    // No second palette: no data-theme block or media query redefines a colour.
    expect(css).not.toMatch(/prefers-color-scheme/);
    expect(css).toMatch(/:root\[data-theme="dark"\] \{ color-scheme: dark; \}/);
    expect(css).toMatch(/:root\[data-theme="light"\] \{ color-scheme: light; \}/);
    expect(root.get("--bg")).toBe("light-dark(#f7f7fb, #0f111a)");
  });

  it("gives every page colour a dark value", () => {
    // Only the sidebar (dark in both themes), the white text on fills and the text in the (always light) diagram box keep one value.
    const single = [...root].filter(
      ([k, v]) => /^#|^rgb/.test(v) && !k.startsWith("--sidebar") && !["--on-fill", "--brand-fill", "--brand-fill-hover", "--diagram-text"].includes(k),
    );
    expect(single.map(([k]) => k)).toEqual([]);
  });

  it("reaches WCAG AA (4.5:1) for every text colour on its background, in both themes", () => {
    const failures: string[] = [];
    for (const [name, palette] of [
      ["light", light],
      ["dark", dark],
    ] as const) {
      // Buttons: white on the brand colour in the light theme, on --brand-fill in the dark one.
      const fill = name === "dark" ? palette.get("--brand-fill")! : palette.get("--brand")!;
      const pairs: [string, string, string, string][] = TEXT_PAIRS.map(([t, b]) => [t, b, palette.get(t)!, palette.get(b)!]);
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
