import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import type { RenderedDiagram } from "./document";
import { diagramKey } from "./markdown-tokens";
import { CHILD_SCRIPT } from "./mermaid-child";

/**
 * Mermaid diagrams rendered on the server (issue 11) by the real Mermaid in
 * headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium), driven by
 * playwright-core in a child Node process (mermaid-child.ts): the server
 * process never loads playwright (about 90 MB resident), and a hung browser
 * cannot hang it. The mermaid bundle from node_modules is injected into a
 * blank, offline page with every request refused, so nothing leaves the
 * machine. The child is started on the first diagram, keeps one browser and
 * page for every later export (one document at a time), and exits after
 * 60 s without work, when closeDiagramBrowser() is called, or when this
 * process goes away (its stdin closes).
 *
 * Each diagram gives an SVG (labels as SVG text; scrubbed in the page and
 * checked again here) and a PNG screenshot at 2x device scale. A diagram
 * that does not parse, or any diagram when Chromium or playwright-core is
 * missing, rendering times out or EXPORT_DIAGRAMS=off, is null: renderers
 * show a fallback box with the source.
 */

const IDLE_MS = 60_000;
const TIMEOUT_MS = 10_000;
/** Launching Chromium and loading mermaid (about 1 s, more on a busy machine). */
const START_MS = 20_000;
const MAX_WIDTH = 1200;
const MAX_SOURCE = 50_000;
/** Diagrams rendered per document; any beyond show their source. */
const MAX_DIAGRAMS = 40;
const CACHE_SIZE = 100;

type Answer = RenderedDiagram | null | undefined;
interface ChildReply {
  id: number;
  error?: string;
  results?: ({ svg: string; png: string; width: number; height: number } | null)[];
}

const cache = new Map<string, RenderedDiagram | null>();
let queue: Promise<unknown> = Promise.resolve();
let child: { proc: ChildProcess; waiting: Map<number, (reply: ChildReply) => void> } | null = null;
let jobs = 0;
let warned = false;

export const diagramsEnabled = () => !/^(off|false|0|no)$/i.test(process.env.EXPORT_DIAGRAMS ?? "");
const chromiumPath = () => process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const hash = (source: string) => crypto.createHash("sha256").update(source).digest("hex");

function resolveModule(specifier: string): string | null {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    return null;
  }
}

function remember(key: string, value: RenderedDiagram | null) {
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
}

/**
 * Renders the Mermaid sources of one document (keys: the sources, trimmed).
 * Never throws: what cannot be rendered is null.
 */
export async function renderDiagrams(sources: string[]): Promise<Map<string, RenderedDiagram | null>> {
  const keys = [...new Set(sources.map(diagramKey).filter(Boolean))];
  const out = new Map<string, RenderedDiagram | null>();
  const todo: string[] = [];
  for (const key of keys) {
    const hit = cache.get(hash(key));
    if (hit !== undefined) {
      remember(hash(key), hit);
      out.set(key, hit);
    } else if (key.length > MAX_SOURCE || todo.length >= MAX_DIAGRAMS) out.set(key, null);
    else todo.push(key);
  }
  if (todo.length === 0) return out;
  const playwright = resolveModule("playwright-core");
  const bundle = resolveModule("mermaid/dist/mermaid.min.js");
  if (!diagramsEnabled() || !playwright || !bundle || !fs.existsSync(chromiumPath())) {
    for (const key of todo) out.set(key, null);
    return out;
  }
  const job = queue.then(() => renderInChild(todo, { playwright, bundle }));
  queue = job.catch(() => undefined);
  const results = await job.catch(() => todo.map((): Answer => undefined));
  todo.forEach((key, i) => {
    const result = results[i];
    // Only a definite answer is cached (a parse error is; a crashed or missing browser is not).
    if (result !== undefined) remember(hash(key), result);
    out.set(key, result ?? null);
  });
  return out;
}

function startChild(paths: { playwright: string; bundle: string }) {
  const proc = spawn(process.execPath, ["--input-type=module", "-e", CHILD_SCRIPT], {
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      PRD_PLAYWRIGHT_URL: pathToFileURL(paths.playwright).href,
      PRD_MERMAID: paths.bundle,
      PRD_CHROMIUM: chromiumPath(),
      PRD_IDLE_MS: String(IDLE_MS),
    },
  });
  const state = { proc, waiting: new Map<number, (reply: ChildReply) => void>() };
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  createInterface({ input: proc.stdout! }).on("line", (line) => {
    let reply: ChildReply;
    try {
      reply = JSON.parse(line) as ChildReply;
    } catch {
      return;
    }
    state.waiting.get(reply.id)?.(reply);
    state.waiting.delete(reply.id);
  });
  proc.on("error", (error) => (stderr += String(error)));
  proc.on("exit", () => {
    for (const [id, done] of state.waiting) done({ id, error: `the diagram process stopped ${stderr.trim().split("\n").pop() ?? ""}` });
    state.waiting.clear();
    if (child === state) child = null;
  });
  // The child never keeps this process alive on its own (a pending job does, see below).
  idleHandles(proc, false);
  return state;
}

function idleHandles(proc: ChildProcess, busy: boolean) {
  for (const handle of [proc, proc.stdin, proc.stdout, proc.stderr] as { ref?: () => void; unref?: () => void }[]) {
    if (busy) handle?.ref?.();
    else handle?.unref?.();
  }
}

/** One answer per source: a diagram, null (does not parse, or refused) or undefined (not rendered: browser trouble). */
async function renderInChild(sources: string[], paths: { playwright: string; bundle: string }): Promise<Answer[]> {
  child ??= startChild(paths);
  const state = child;
  const id = ++jobs;
  idleHandles(state.proc, true);
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await new Promise<ChildReply>((resolve) => {
      state.waiting.set(id, resolve);
      timer = setTimeout(() => resolve({ id, error: "timed out" }), START_MS + TIMEOUT_MS * Math.min(sources.length, 6));
      const ids = sources.map((s) => `mermaid-${hash(s).slice(0, 12)}`);
      state.proc.stdin!.write(`${JSON.stringify({ id, sources, ids, maxWidth: MAX_WIDTH })}\n`);
    });
    if (!reply.results) {
      // A hung or broken browser: start from a fresh process next time.
      stopChild(state);
      if (!warned && process.env.NODE_ENV !== "test") console.warn(`[exports] Mermaid diagrams are shown as source: ${reply.error}`);
      warned = true;
      return sources.map(() => undefined);
    }
    return reply.results.map((r) =>
      r && isTrustedSvg(r.svg) ? { svg: r.svg, png: Buffer.from(r.png, "base64"), width: r.width, height: r.height } : null,
    );
  } finally {
    clearTimeout(timer);
    state.waiting.delete(id);
    if (child === state) idleHandles(state.proc, false);
  }
}

function stopChild(state: NonNullable<typeof child>) {
  if (child === state) child = null;
  if (state.proc.exitCode !== null || state.proc.signalCode !== null) return;
  state.proc.kill("SIGTERM");
  setTimeout(() => state.proc.exitCode === null && state.proc.signalCode === null && state.proc.kill("SIGKILL"), 5_000).unref();
}

/** Stops the diagram process and its browser (shutdown, tests). Safe to call at any time. */
export async function closeDiagramBrowser() {
  const state = child;
  if (!state || state.proc.exitCode !== null || state.proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => state.proc.once("exit", () => resolve()));
  idleHandles(state.proc, true);
  stopChild(state);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 6_000).unref())]);
}

/** Forgets rendered diagrams (tests). */
export const clearDiagramCache = () => cache.clear();

const FORBIDDEN_TAGS = /^(script|iframe|object|embed|link|meta|base|form|input|textarea|button|audio|video|foreignobject)$/i;

/**
 * Node-side check of what the page returned (defence in depth): every tag
 * allowed, no event-handler attribute, references only inside the SVG
 * (#id), no style reaching out (@import, url(http...)). Text is escaped by
 * the serializer, so only tags are examined.
 */
export function isTrustedSvg(svg: string) {
  if (!svg.startsWith("<svg") || /@import|url\(\s*["']?\s*(?!#)[a-z/]/i.test(svg) || /javascript:/i.test(svg)) return false;
  for (const m of svg.matchAll(/<([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    if (FORBIDDEN_TAGS.test(m[1]!)) return false;
    for (const a of m[2]!.matchAll(/([^\s=/]+)\s*=\s*("[^"]*"|'[^']*')/g)) {
      const name = a[1]!.toLowerCase();
      const value = a[2]!.slice(1, -1).trim();
      if (name.startsWith("on")) return false;
      if ((name === "href" || name.endsWith(":href") || name === "src") && !value.startsWith("#")) return false;
    }
  }
  return true;
}
