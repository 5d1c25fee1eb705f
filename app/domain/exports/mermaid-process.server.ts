import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { CHILD_SCRIPT } from "./mermaid-child";

/**
 * The diagram process (mermaid-child.ts) seen from the server: started on
 * the first diagram, one diagram per call (the fair queue in
 * mermaid.server.ts decides which), stopped when it misbehaves, after
 * 60 s without work (by itself), by closeDiagramBrowser(), or when this
 * process goes away (its stdin closes). It never keeps this process alive
 * on its own; a pending diagram does.
 */

const IDLE_MS = 60_000;
/** Rendering one diagram in its page (a hung one is closed and falls back). */
const RENDER_TIMEOUT_MS = 10_000;
/** Launching Chromium and loading mermaid (about 1 s, more on a busy machine). */
const START_MS = 20_000;
const MAX_WIDTH = 1200;

export interface ChildResult {
  svg: string;
  png: string;
  width: number;
  height: number;
}
interface ChildReply {
  id: number;
  error?: string;
  result?: ChildResult | null;
  /** Set when the null result is not the diagram's answer (timed out, page crashed). */
  transient?: string;
  notice?: string;
}
export interface RendererPaths {
  playwright: string;
  /** mermaid's ES module entry (mermaid/dist/mermaid.esm.min.mjs). */
  bundle: string;
  chromium: string;
}
export interface RendererOverrides {
  /** Run in every page after mermaid loads (a test wraps mermaid.render with it). */
  pageScript?: string;
  renderTimeoutMs?: number;
}

let child: { proc: ChildProcess; waiting: Map<number, (reply: ChildReply) => void> } | null = null;
let jobs = 0;
let warned = false;
let overrides: RendererOverrides = {};

const log = (message: string) => process.env.NODE_ENV !== "test" && console.warn(`[exports] ${message}`);

/** Test hook: a script for every page and another render timeout; null restores the defaults. Restarts the process. */
export async function configureDiagramRenderer(options: RendererOverrides | null) {
  overrides = { ...options };
  await closeDiagramBrowser();
}

/**
 * Renders one diagram: its result, null (does not parse) or undefined (not
 * rendered: timed out, page crashed, browser trouble — not an answer to cache).
 */
export async function renderInChild(source: string, paths: RendererPaths): Promise<ChildResult | null | undefined> {
  child ??= startChild(paths);
  const state = child;
  const id = ++jobs;
  const timeoutMs = overrides.renderTimeoutMs ?? RENDER_TIMEOUT_MS;
  idleHandles(state.proc, true);
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await new Promise<ChildReply>((resolve) => {
      state.waiting.set(id, resolve);
      // The child answers a slow diagram itself; this is for a child (or browser) that is stuck.
      timer = setTimeout(() => resolve({ id, error: "timed out" }), START_MS + timeoutMs);
      const domId = `mermaid-${crypto.createHash("sha256").update(source).digest("hex").slice(0, 12)}`;
      state.proc.stdin!.write(`${JSON.stringify({ id, source, domId, maxWidth: MAX_WIDTH, timeoutMs })}\n`);
    });
    if (reply.result === undefined) {
      // A hung or broken browser: start from a fresh process next time.
      stopChild(state);
      if (!warned) log(`Mermaid diagrams are shown as source: ${reply.error}`);
      warned = true;
      return undefined;
    }
    return reply.transient ? undefined : reply.result;
  } finally {
    clearTimeout(timer);
    state.waiting.delete(id);
    if (child === state) idleHandles(state.proc, false);
  }
}

function startChild(paths: RendererPaths) {
  const proc = spawn(process.execPath, ["--input-type=module", "-e", CHILD_SCRIPT], {
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      PRD_PLAYWRIGHT_URL: pathToFileURL(paths.playwright).href,
      PRD_MERMAID: paths.bundle,
      PRD_CHROMIUM: paths.chromium,
      PRD_IDLE_MS: String(IDLE_MS),
      PRD_PAGE_SCRIPT: overrides.pageScript ?? "",
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
    if (reply.notice) log(reply.notice);
    state.waiting.get(reply.id)?.(reply);
    state.waiting.delete(reply.id);
  });
  proc.on("error", (error) => (stderr += String(error)));
  proc.on("exit", () => {
    for (const [id, done] of state.waiting) done({ id, error: `the diagram process stopped ${stderr.trim().split("\n").pop() ?? ""}` });
    state.waiting.clear();
    if (child === state) child = null;
  });
  idleHandles(proc, false);
  return state;
}

function idleHandles(proc: ChildProcess, busy: boolean) {
  for (const handle of [proc, proc.stdin, proc.stdout, proc.stderr] as { ref?: () => void; unref?: () => void }[]) {
    if (busy) handle?.ref?.();
    else handle?.unref?.();
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
