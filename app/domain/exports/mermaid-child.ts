/**
 * The program of the diagram process (mermaid.server.ts runs it with
 * `node --input-type=module -e`, so it needs no file of its own in the
 * bundle). It drives headless Chromium through playwright-core — which
 * costs about 90 MB of resident memory, kept out of the server process this
 * way — and answers one JSON line per diagram on stdout:
 *   in:  {"id":1,"source":"flowchart TD...","domId":"mermaid-ab12","maxWidth":1200,"timeoutMs":10000}
 *   out: {"id":1,"result":{"svg":"<svg...","png":"<base64>","width":120,"height":80} | null}
 *        {"id":1,"result":null,"transient":"timed out"}   (not an answer to cache)
 *        {"id":1,"error":"..."}                            (browser trouble)
 *        {"notice":"..."}                                  (for the server's log)
 *
 * Isolation: the browser process stays warm, but every diagram is rendered
 * in a fresh browser context (its own page, DOM, JS globals, mermaid state
 * and storage), closed right after; no diagram ever sees what an earlier one
 * (of another organization) left behind. The next context is prepared while
 * the current diagram renders: mermaid's ES modules loaded (PRD_MERMAID is
 * the entry, mermaid.esm.min.mjs; about 0.25 s, the single-file bundle takes
 * 0.6 s), PRD_PAGE_SCRIPT run if set (tests), and warmed up by rendering a
 * fixed diagram of ours. A diagram taking longer than timeoutMs is answered
 * null and its context closed (which stops a renderer stuck in a loop); the
 * next diagram renders as usual.
 *
 * Chromium's sandbox is on when this process is not root (chromiumSandbox);
 * if it cannot start there (no user namespaces nor setuid helper), Chromium
 * runs without it and a notice says so. As root (containers that run as
 * root, CI) Chromium refuses its sandbox, so it stays off.
 *
 * Exits after PRD_IDLE_MS without work, on SIGTERM, and when its stdin
 * closes (the server went away).
 */

/**
 * Runs in the page: renders the source, scrubs the SVG (no scripts, no
 * event handlers, no references outside the SVG), lays it out at its
 * natural size (at most maxWidth) inside #box for the screenshot.
 */
const RENDER_IN_PAGE = `async ({ source, domId, maxWidth }) => {
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
  try {
    await mermaid.parse(source);
    const { svg } = await mermaid.render(domId, source);
    const box = document.createElement("div");
    box.id = "box";
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
    return { svg: clean, width: Math.round(outer.width), height: Math.round(outer.height) };
  } catch (e) {
    return { svg: null, width: 0, height: 0 };
  }
}`;

export const CHILD_SCRIPT = `
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
const playwright = await import(process.env.PRD_PLAYWRIGHT_URL);
const chromium = playwright.chromium ?? playwright.default.chromium;
const RENDER = ${JSON.stringify(RENDER_IN_PAGE)};
const ORIGIN = "http://mermaid.invalid";
const DIST = path.dirname(process.env.PRD_MERMAID);
const ENTRY = path.basename(process.env.PRD_MERMAID);
/** Mermaid's modules read so far (the entry and the chunks diagrams need). */
const modules = new Map();
const IDLE = Number(process.env.PRD_IDLE_MS) || 60000;
const OP_TIMEOUT = 10000;
const HTML = "<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0;background:#fff'></body></html>";
const WARM_UP = JSON.stringify({ source: "flowchart LR\\n  a[Warm] --> b{up?}", domId: "warm-up", maxWidth: 1200 });
const ARGS = ["--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions"];
let browser = null;
let spare = null;
let noSandbox = process.getuid?.() === 0;
let idle = null;

const send = (message) => process.stdout.write(JSON.stringify(message) + "\\n");

async function launch() {
  const options = { executablePath: process.env.PRD_CHROMIUM, args: ARGS };
  // Root cannot use Chromium's sandbox (Chromium refuses to start), anyone else gets it when the system allows.
  if (!noSandbox) {
    try {
      return await chromium.launch({ ...options, chromiumSandbox: true });
    } catch (e) {
      noSandbox = true;
      send({ notice: "Chromium's sandbox is not available here, diagrams render without it: " + String((e && e.message) || e).split("\\n")[0].slice(0, 300) });
    }
  }
  return chromium.launch({ ...options, chromiumSandbox: false });
}

function warm() {
  if (!browser) {
    const started = launch();
    browser = started;
    started.then(
      (b) => b.on("disconnected", () => { if (browser === started) { browser = null; spare = null; } }),
      () => { if (browser === started) browser = null; },
    );
  }
  return browser;
}

/**
 * A context no diagram has used: a blank page on an origin of its own that
 * may fetch nothing but mermaid's own modules (served from node_modules
 * here, so nothing leaves the machine); mermaid loaded.
 */
async function prepare() {
  const b = await warm();
  const context = await b.newContext({ deviceScaleFactor: 2, offline: true, serviceWorkers: "block", viewport: { width: 1300, height: 800 } });
  let timer;
  const stuck = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error("preparing a page timed out")), 2 * OP_TIMEOUT); });
  try {
    return await Promise.race([load(context), stuck]);
  } catch (e) {
    await context.close().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function load(context) {
  await context.route("**/*", serve);
  const page = await context.newPage();
  page.setDefaultTimeout(OP_TIMEOUT);
  await page.goto(ORIGIN + "/");
  await page.evaluate("import(" + JSON.stringify(ORIGIN + "/" + ENTRY) + ").then((m) => { window.mermaid = m.default; })");
  if (process.env.PRD_PAGE_SCRIPT) await page.evaluate(process.env.PRD_PAGE_SCRIPT);
  // A first render of our own (no organization's) warms the page's code and fonts: about 0.2 s off each diagram.
  await page.evaluate("(" + RENDER + ")(" + WARM_UP + ").then(() => document.body.replaceChildren())");
  return { context, page };
}

/** The page, and mermaid's ES modules (only files under its dist directory); every other request is refused. */
function serve(route) {
  const request = route.request();
  const url = new URL(request.url());
  if (url.origin !== ORIGIN || request.method() !== "GET") return route.abort();
  if (url.pathname === "/") return route.fulfill({ body: HTML, contentType: "text/html; charset=utf-8" });
  const file = path.join(DIST, url.pathname);
  if (!file.startsWith(DIST + path.sep) || !file.endsWith(".mjs")) return route.abort();
  if (!modules.has(file)) {
    try { modules.set(file, fs.readFileSync(file)); } catch { return route.abort(); }
  }
  return route.fulfill({ body: modules.get(file), contentType: "text/javascript; charset=utf-8" });
}

function take() {
  const next = spare ?? prepare();
  spare = null;
  return next;
}

function refill() {
  if (spare || !browser) return;
  const made = prepare();
  made.catch(() => { if (spare === made) spare = null; });
  spare = made;
}

async function handle(job) {
  clearTimeout(idle);
  let reply;
  let fresh = null;
  try {
    fresh = await take();
    const { page } = fresh;
    refill();
    let timer;
    const timedOut = new Promise((resolve) => { timer = setTimeout(() => resolve("timeout"), job.timeoutMs); });
    const work = (async () => {
      const r = await page.evaluate("(" + RENDER + ")(" + JSON.stringify({ source: job.source, domId: job.domId, maxWidth: job.maxWidth }) + ")");
      if (!r.svg) return null;
      const png = await page.locator("#box").screenshot({ type: "png", animations: "disabled" });
      return { svg: r.svg, png: png.toString("base64"), width: r.width, height: r.height };
    })();
    work.catch(() => {});
    const result = await Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
    reply = result === "timeout" ? { id: job.id, result: null, transient: "timed out" } : { id: job.id, result };
  } catch (e) {
    const message = String((e && e.message) || e).slice(0, 500);
    // The page alone failed (crashed, closed): this diagram falls back; a dead browser is the server's to restart.
    const alive = browser && (await browser.then((b) => b.isConnected(), () => false));
    reply = fresh && alive ? { id: job.id, result: null, transient: message } : { id: job.id, error: message };
  }
  send(reply);
  // Closing the context also stops a renderer stuck in a loop.
  if (fresh) await Promise.race([fresh.context.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
  idle = setTimeout(shutdown, IDLE);
}

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  try { await (await browser)?.close(); } catch {}
  process.exit(0);
}

let chain = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => { chain = chain.then(() => handle(JSON.parse(line))); });
lines.on("close", () => void chain.then(shutdown));
process.on("SIGTERM", () => void shutdown());
`;
