// @vitest-environment jsdom
import { createRequire } from "node:module";
import path from "node:path";
import createDOMPurify from "dompurify";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MERMAID_CONFIG, sanitizeMermaidSvg } from "~/components/ai/mermaid-safety";

/**
 * Mermaid in the browser (app/components/ai/mermaid-diagram.tsx): a label such
 * as `A["<img src=x onerror=alert(1)>"]` must not become HTML in the page.
 * The settings are tried with the real Mermaid in Chromium (as the browser
 * runs it; jsdom cannot lay out SVG), and the sanitizer on what Mermaid drew
 * with HTML labels, in jsdom.
 */

const HOSTILE = 'flowchart TD\n  A["<img src=x onerror=alert(1)> Label"] --> B["Next"]';
const purify = createDOMPurify(window);

/** The elements of an SVG (parsed as the page would) and their attribute names. */
function parts(svg: string) {
  const body = new DOMParser().parseFromString(`<!doctype html><body>${svg}</body>`, "text/html").body;
  const all = [...body.querySelectorAll("*")];
  return {
    tags: all.map((e) => e.localName),
    handlers: all.flatMap((e) => [...e.attributes].map((a) => a.name).filter((n) => n.toLowerCase().startsWith("on"))),
    text: body.textContent ?? "",
  };
}

describe("the settings", () => {
  it("strict, no HTML labels anywhere, and none of that can be changed by a diagram's init directive", () => {
    expect(MERMAID_CONFIG.securityLevel).toBe("strict");
    expect(MERMAID_CONFIG.htmlLabels).toBe(false);
    expect(MERMAID_CONFIG.flowchart.htmlLabels).toBe(false);
    for (const key of ["securityLevel", "htmlLabels", "flowchart", "secure", "dompurifyConfig"]) expect(MERMAID_CONFIG.secure).toContain(key);
  });
});

describe("the sanitizer", () => {
  // What Mermaid 11 drew for HOSTILE with HTML labels on (its own DOMPurify had left the <img>), plus what a bug could add.
  const drawn = `<svg id="m" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" onload="alert(0)"><style>#m .node rect{fill:#eee}</style>
<g class="node"><rect width="80" height="30"/><foreignObject width="80" height="30"><div xmlns="http://www.w3.org/1999/xhtml"><span class="nodeLabel"><img src="x" onerror="alert(1)"> Label</span></div></foreignObject></g>
<path d="M0,0L10,10" marker-end="url(#m_arrow)"/><text x="5" y="5" onclick="alert(2)">Next</text><script>alert(3)</script>
<a href="javascript:alert(4)"><text>link</text></a></svg>`;

  it("leaves no <img>, no handler, no script, no HTML and no javascript: link; the drawing, its style and its text stay", () => {
    const clean = sanitizeMermaidSvg(drawn, purify);
    const { tags, handlers, text } = parts(clean);
    expect(tags).not.toContain("img");
    expect(tags).not.toContain("script");
    expect(tags).not.toContain("foreignobject");
    expect(tags).not.toContain("div");
    expect(handlers).toEqual([]);
    expect(clean).not.toMatch(/onerror|onload|onclick|javascript:/i);
    expect(tags).toEqual(expect.arrayContaining(["svg", "style", "rect", "path", "text"]));
    expect(clean).toContain('marker-end="url(#m_arrow)"');
    expect(clean).toContain('viewBox="0 0 100 50"');
    expect(text).toContain("Next");
  });

  it("fails closed: without a DOM to sanitize with, or without an SVG, nothing is put in the page", () => {
    const noDom = createDOMPurify({} as never);
    expect(noDom.isSupported).toBe(false);
    expect(sanitizeMermaidSvg(drawn, noDom)).toBe("");
    expect(sanitizeMermaidSvg('<img src="x" onerror="alert(1)">', purify)).toBe("");
  });
});

describe("the real Mermaid, in Chromium", () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    const root = process.getuid?.() === 0;
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: root ? ["--no-sandbox"] : [] });
    page = await browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    const mermaidDir = path.dirname(createRequire(import.meta.url).resolve("mermaid"));
    await page.addScriptTag({ path: path.join(mermaidDir, "mermaid.min.js") });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const render = (source: string, config: object) =>
    page.evaluate(
      async ({ source, config }) => {
        const m = (window as unknown as { mermaid: typeof import("mermaid").default }).mermaid;
        m.initialize(config);
        return (await m.render(`d${Math.random().toString(36).slice(2)}`, source)).svg;
      },
      { source, config },
    );

  it("with the page's settings a hostile label is text: no <img>, no onerror, no HTML, before and after sanitizing", async () => {
    // Mermaid's defaults (the settings before this fix) put the <img> in the SVG.
    expect(parts(await render(HOSTILE, { startOnLoad: false, securityLevel: "strict" })).tags).toContain("img");

    for (const source of [HOSTILE, `%%{init: {"htmlLabels": true, "flowchart": {"htmlLabels": true}, "securityLevel": "loose"}}%%\n${HOSTILE}`]) {
      const svg = await render(source, MERMAID_CONFIG);
      for (const drawn of [svg, sanitizeMermaidSvg(svg, purify)]) {
        const { tags, handlers, text } = parts(drawn);
        expect(tags).not.toContain("img");
        expect(tags).not.toContain("foreignobject");
        expect(handlers).toEqual([]);
        expect(text).toContain("Label");
        expect(text).toContain("Next");
      }
    }
  }, 60_000);
});
