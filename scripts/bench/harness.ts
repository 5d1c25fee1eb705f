/** Pieces the benchmarks share: ports, child servers, autocannon runs, RSS, docs output. */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import autocannon from "autocannon";

export async function freePort() {
  return new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The environment of the production server on `port` over `dataDir`, as the benchmarks start it. */
export function productionEnv(port: number, dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    ...extra,
  };
}

/** Polls `url` until it answers 200; returns the milliseconds it took from `since`. */
export async function waitForOk(url: string, since = performance.now(), timeoutMs = 60_000) {
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - since;
    } catch {}
    if (performance.now() - since > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Polls `url` until nothing answers there any more (the previous server has exited). */
export async function waitForClosed(url: string, timeoutMs = 15_000) {
  const since = performance.now();
  for (;;) {
    try {
      await fetch(url);
    } catch {
      return;
    }
    if (performance.now() - since > timeoutMs) throw new Error(`${url} still answers after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Spawns a command in its own process group (so the whole group can be stopped). */
export function spawnGroup(command: string, args: string[], env: NodeJS.ProcessEnv, quiet = true): ChildProcess {
  return spawn(command, args, { env, detached: true, stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"] });
}

/** Spawns a server that prints `<marker> <url>` on stdout when it listens; resolves with its URL. */
export async function spawnForUrl(args: string[], env: NodeJS.ProcessEnv, marker: string) {
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = new RegExp(`${marker} (\\S+)`).exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code} before listening`)));
  });
  return { child, url };
}

export async function stopGroup(child: ChildProcess) {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
  await exited;
}

/** Peak resident set size of a process (VmHWM), in MB. */
export function peakRssMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  /** Rewrites each request's path (e.g. to make every request different). */
  vary?: (path: string) => string,
): Promise<Load> {
  const requests = vary ? [{ setupRequest: (r: { path: string }) => ({ ...r, path: vary(r.path) }) }] : undefined;
  const r = await autocannon({ url, headers, connections, duration: seconds, requests });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

export const machine = () => {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
};

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` in a file (appends the block when missing). */
export function writeBlock(file: string, name: string, body: string) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  fs.writeFileSync(file, i >= 0 && j > i ? `${text.slice(0, i)}${block}${text.slice(j + end.length)}` : `${text.trimEnd()}\n\n${block}\n`);
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** The /metrics token the benchmarks start the app with. */
export const METRICS_TOKEN = "bench-metrics-token-0123456789";

/** Reads the app's event-loop delay gauges (ms) from /metrics; the scrape resets them. */
export async function eventLoopDelay(base: string) {
  const text = await (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, "m").exec(text)?.[1] ?? NaN) * 1000;
  return { p99: gauge("nodejs_eventloop_lag_p99_seconds"), max: gauge("nodejs_eventloop_lag_max_seconds") };
}

/** A process's resident set size now (MB). */
export function rssMb(pid: number) {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}

/** Samples a process's resident set size every `everyMs`; `stop()` gives the highest sample (MB). */
export function sampleRss(pid: number, everyMs = 20) {
  const now = () => rssMb(pid);
  const first = now();
  let peak = first;
  const timer = setInterval(() => (peak = Math.max(peak, now())), everyMs);
  return { first, stop: () => (clearInterval(timer), Math.max(peak, now())) };
}

/** Signs in through the API as a browser would; the session cookie (`name=value`) to send with page and API requests. */
export async function signInCookie(base: string, email: string, password: string) {
  const signIn = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  return signIn.headers.getSetCookie()[0]!.split(";")[0]!;
}
