/**
 * The program of the diagram process (mermaid.server.ts runs it with
 * `node --input-type=module -e`, so it needs no file of its own in the
 * bundle). It drives headless Chromium through playwright-core — which
 * costs about 90 MB of resident memory, kept out of the server process this
 * way — and answers one JSON line per job on stdout:
 *   in:  {"id":1,"sources":["flowchart TD..."],"ids":["mermaid-ab12"],"maxWidth":1200}
 *   out: {"id":1,"results":[{"svg":"<svg...","png":"<base64>","width":120,"height":80} | null]}
 *        or {"id":1,"error":"..."}
 * One browser and one page, kept between jobs; exits after PRD_IDLE_MS without
 * work, on SIGTERM, and when its stdin closes (the server went away).
 */

/**
 * Runs in the page: renders each source, scrubs the SVG (no scripts, no
 * event handlers, no references outside the SVG), lays it out at its
 * natural size (at most maxWidth) inside #box-i for the screenshot.
 */
const RENDER_IN_PAGE = `async ({ sources, ids, maxWidth }) => {
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: "strict",
    // Keys a %%{init}%% directive in a diagram may not change.
    secure: ["secure", "securityLevel", "startOnLoad", "maxTextSize", "suppressErrorRendering", "maxEdges", "htmlLabels", "flowchart", "themeCSS", "fontFamily", "dompurifyConfig"],
    theme: "default",
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    fontFamily: "Arial, Helvetica, sans-serif",
  });
  const out = [];
  for (let i = 0; i < sources.length; i++) {
    try {
      await mermaid.parse(sources[i]);
      const { svg } = await mermaid.render(ids[i], sources[i]);
      const box = document.createElement("div");
      box.id = "box-" + i;
      box.style.cssText = "display:inline-block;padding:8px;background:#fff";
      box.innerHTML = svg;
      document.body.appendChild(box);
      const el = box.querySelector("svg");
      if (!el) throw new Error("no svg");
      el.querySelectorAll("script, iframe, object, embed, link, meta").forEach((n) => n.remove());
      for (const n of [el, ...el.querySelectorAll("*")]) {
        for (const a of [...n.attributes]) {
          const name = a.name.toLowerCase();
          const value = a.value.trim().toLowerCase();
          if (name.startsWith("on")) n.removeAttribute(a.name);
          else if ((name === "href" || name === "xlink:href" || name === "src") && !value.startsWith("#")) n.removeAttribute(a.name);
          else if (value.includes("javascript:")) n.removeAttribute(a.name);
        }
      }
      const rect = el.getBoundingClientRect();
      const vb = el.viewBox && el.viewBox.baseVal;
      const naturalW = vb && vb.width ? vb.width : rect.width;
      const naturalH = vb && vb.height ? vb.height : rect.height;
      const width = Math.max(1, Math.round(Math.min(naturalW, maxWidth)));
      const height = Math.max(1, Math.round((naturalH * width) / naturalW));
      const clean = new XMLSerializer().serializeToString(el);
      el.setAttribute("width", String(width));
      el.setAttribute("height", String(height));
      el.style.maxWidth = "none";
      el.style.display = "block";
      const outer = box.getBoundingClientRect();
      out.push({ svg: clean, width: Math.round(outer.width), height: Math.round(outer.height) });
    } catch (e) {
      for (const id of [ids[i], "d" + ids[i], "i" + ids[i]]) document.getElementById(id)?.remove();
      out.push({ svg: null, width: 0, height: 0 });
    }
  }
  return out;
}`;

export const CHILD_SCRIPT = `
import { createInterface } from "node:readline";
const playwright = await import(process.env.PRD_PLAYWRIGHT_URL);
const chromium = playwright.chromium ?? playwright.default.chromium;
const RENDER = ${JSON.stringify(RENDER_IN_PAGE)};
const IDLE = Number(process.env.PRD_IDLE_MS) || 60000;
const TIMEOUT = 10000;
let browser = null;
let page = null;
let idle = null;

async function warm() {
  if (page) return page;
  browser = await chromium.launch({
    executablePath: process.env.PRD_CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions"],
  });
  browser.on("disconnected", () => { browser = null; page = null; });
  const context = await browser.newContext({ deviceScaleFactor: 2, offline: true, viewport: { width: 1300, height: 800 } });
  await context.route("**/*", (route) => route.abort());
  const p = await context.newPage();
  p.setDefaultTimeout(TIMEOUT);
  await p.setContent("<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0;background:#fff'></body></html>");
  await p.addScriptTag({ path: process.env.PRD_MERMAID });
  page = p;
  return p;
}

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  try { await browser?.close(); } catch {}
  process.exit(0);
}

async function handle(job) {
  clearTimeout(idle);
  let reply;
  try {
    const p = await warm();
    const rendered = await p.evaluate("(" + RENDER + ")(" + JSON.stringify({ sources: job.sources, ids: job.ids, maxWidth: job.maxWidth }) + ")");
    const results = [];
    for (let i = 0; i < rendered.length; i++) {
      const r = rendered[i];
      if (!r.svg) { results.push(null); continue; }
      const png = await p.locator("#box-" + i).screenshot({ type: "png", animations: "disabled" });
      results.push({ svg: r.svg, png: png.toString("base64"), width: r.width, height: r.height });
    }
    await p.evaluate("document.body.innerHTML = ''");
    reply = { id: job.id, results };
  } catch (e) {
    reply = { id: job.id, error: String((e && e.message) || e).slice(0, 500) };
    try { await browser?.close(); } catch {}
    browser = null;
    page = null;
  }
  process.stdout.write(JSON.stringify(reply) + "\\n");
  idle = setTimeout(shutdown, IDLE);
}

let chain = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => { chain = chain.then(() => handle(JSON.parse(line))); });
lines.on("close", () => void chain.then(shutdown));
process.on("SIGTERM", () => void shutdown());
`;
