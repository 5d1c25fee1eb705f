import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import type { RenderedDiagram } from "./document";
import { diagramKey } from "./markdown-tokens";
import { renderInChild, type RendererPaths } from "./mermaid-process.server";
import { FairQueue } from "./mermaid-queue.server";

export { closeDiagramBrowser, configureDiagramRenderer } from "./mermaid-process.server";

/**
 * Mermaid diagrams rendered on the server by the real Mermaid in
 * headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium), driven by
 * playwright-core in a child Node process (mermaid-child.ts): the server
 * process never loads playwright (about 90 MB resident), and a hung browser
 * cannot hang it. Mermaid's ES modules from node_modules are served to a
 * blank, offline page with every other request refused, so nothing leaves
 * the machine. The child (mermaid-process.server.ts) is started on the
 * first diagram, keeps its browser warm, renders every diagram in a fresh
 * browser context (nothing shared between organizations), and exits after
 * 60 s without work, when closeDiagramBrowser() is called, or when this
 * process goes away (its stdin closes).
 *
 * Sharing one renderer between organizations (security review): diagrams
 * are queued per organization and taken one at a time, round-robin
 * (mermaid-queue.server.ts), so one organization's large export delays
 * another's diagram by at most the one diagram being rendered; each diagram
 * has a render timeout; a request, an organization and the whole queue are
 * bounded (below). The cache is per organization: a fast answer never tells
 * an organization that another one rendered the same source.
 *
 * Each diagram gives an SVG (labels as SVG text; scrubbed in the page and
 * checked again here) and a PNG screenshot at 2x device scale. A diagram
 * that does not parse or times out, anything beyond the bounds, or any
 * diagram when Chromium or playwright-core is missing or EXPORT_DIAGRAMS=off,
 * is null: renderers show a fallback box with the source.
 */

const MAX_SOURCE = 50_000;
/** Diagrams rendered per document (request); any beyond show their source. */
const MAX_DIAGRAMS = 40;
/** Characters of source rendered per request; diagrams beyond show their source. */
const MAX_REQUEST_SOURCE = 200_000;
/** Diagrams queued or rendering for one organization (two full documents), and for everybody. */
const MAX_PENDING_PER_ORG = 80;
const MAX_PENDING_TOTAL = 400;
const CACHE_SIZE = 100;

type Answer = RenderedDiagram | null | undefined;

const cache = new Map<string, RenderedDiagram | null>();
/** Diagrams being rendered, by cache key: the same organization asking again waits for the same render. */
const rendering = new Map<string, Promise<Answer>>();
const queue = new FairQueue<{ source: string; paths: RendererPaths }, Answer>((job) => renderOne(job.source, job.paths), {
  concurrency: 1,
  maxPerTenant: MAX_PENDING_PER_ORG,
  maxTotal: MAX_PENDING_TOTAL,
});

export const diagramsEnabled = () => !/^(off|false|0|no)$/i.test(process.env.EXPORT_DIAGRAMS ?? "");
const chromiumPath = () => process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const hash = (source: string) => crypto.createHash("sha256").update(source).digest("hex");
/** Per organization: one organization's cache hits say nothing about another's diagrams. */
const cacheKey = (orgId: string, source: string) => hash(`${orgId}\n${source}`);

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
 * Renders the Mermaid sources of one document of an organization (keys:
 * the sources, trimmed). Never throws: what cannot be rendered is null.
 */
export async function renderDiagrams(orgId: string, sources: string[]): Promise<Map<string, RenderedDiagram | null>> {
  const keys = [...new Set(sources.map(diagramKey).filter(Boolean))];
  const out = new Map<string, RenderedDiagram | null>();
  const todo: string[] = [];
  let budget = MAX_REQUEST_SOURCE;
  for (const key of keys) {
    const hit = cache.get(cacheKey(orgId, key));
    if (hit !== undefined) {
      remember(cacheKey(orgId, key), hit);
      out.set(key, hit);
    } else if (key.length > MAX_SOURCE || key.length > budget || todo.length >= MAX_DIAGRAMS) out.set(key, null);
    else {
      budget -= key.length;
      todo.push(key);
    }
  }
  if (todo.length === 0) return out;
  const playwright = resolveModule("playwright-core");
  const bundle = resolveModule("mermaid/dist/mermaid.esm.min.mjs");
  const chromium = chromiumPath();
  if (!diagramsEnabled() || !playwright || !bundle || !fs.existsSync(chromium)) {
    for (const key of todo) out.set(key, null);
    return out;
  }
  const results = await Promise.all(todo.map((key) => schedule(orgId, key, { playwright, bundle, chromium })));
  todo.forEach((key, i) => out.set(key, results[i] ?? null));
  return out;
}

/** Queues one diagram in its organization's lane; undefined when the queue is full (shown as source, not cached). */
function schedule(orgId: string, source: string, paths: RendererPaths): Promise<Answer> {
  const key = cacheKey(orgId, source);
  const current = rendering.get(key);
  if (current) return current;
  const queued = queue.push(orgId, { source, paths });
  if (!queued) return Promise.resolve(undefined);
  const answer = queued.then((result) => {
    // Only a definite answer is cached (a parse error is; a timeout or a crashed or missing browser is not).
    if (result !== undefined) remember(key, result);
    return result;
  });
  rendering.set(key, answer);
  void answer.finally(() => rendering.delete(key));
  return answer;
}

/** What the page returned, checked again here: a diagram, null (refused or does not parse) or undefined (not rendered). */
async function renderOne(source: string, paths: RendererPaths): Promise<Answer> {
  const r = await renderInChild(source, paths);
  if (r === undefined) return undefined;
  return r && isTrustedSvg(r.svg) ? { svg: r.svg, png: Buffer.from(r.png, "base64"), width: r.width, height: r.height } : null;
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
