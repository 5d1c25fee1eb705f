import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

/**
 * The built server (build/server.js) as a child process on a free port with a
 * given DATA_DIR, for tests that stop, kill and restart it (crash and backup
 * tests). global-setup.ts starts the shared one the journeys use.
 */

export async function freePort() {
  return new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  log: () => string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
  stop: () => Promise<unknown>;
}

export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_URL: baseUrl,
      DEFAULT_PLAN: "enterprise",
      SMTP_URL: "",
      TRUST_PROXY: "true",
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      GOOGLE_API_KEY: "",
      OPENAI_BASE_URL: "",
      ANTHROPIC_BASE_URL: "",
      GOOGLE_API_BASE_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`Server did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    child,
    log: () => log,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A signed-in API caller: session cookie + same-origin header, its own client address. */
/**
 * A browser tab signed in as `session` (its cookies), from the session's
 * client address; `errors` collects the page's uncaught errors.
 */
export async function signedInPage(browser: import("playwright-core").Browser, session: Session, permissions: string[] = []) {
  const context = await browser.newContext({ baseURL: session.baseUrl, extraHTTPHeaders: { "X-Forwarded-For": session.ip } });
  if (permissions.length) await context.grantPermissions(permissions, { origin: session.baseUrl });
  await context.addCookies(
    session.cookie.split("; ").map((c) => {
      const [name, ...value] = c.split("=");
      return { name: name!, value: value.join("="), url: session.baseUrl };
    }),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

export class Session {
  cookie = "";
  constructor(
    public baseUrl: string,
    public ip: string,
  ) {}

  async call(method: string, path: string, json?: unknown) {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(json === undefined ? {} : { "Content-Type": "application/json" }),
        Origin: this.baseUrl,
        "X-Forwarded-For": this.ip,
        ...(this.cookie ? { Cookie: this.cookie } : {}),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const cookies = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .filter((c) => !c.endsWith("="));
    if (cookies.length) this.cookie = cookies.join("; ");
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async register(email: string, password: string) {
    const res = await this.call("POST", "/api/auth/register", { name: "Durability Tester", email, password });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async signIn(email: string, password: string) {
    const res = await this.call("POST", "/api/auth/sign-in", { email, password });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}

export interface Acknowledged {
  id: string;
  name: string;
}

/**
 * `loops` parallel loops creating projects until `stop()`; `acked` holds every
 * project the server answered 201 for. A loop ends quietly when the server
 * goes away (connection refused/reset); any other answer fails the load.
 */
export function writeLoad(session: Session, loops: number, prefix: string) {
  const acked: Acknowledged[] = [];
  const failures: string[] = [];
  let running = true;
  let n = 0;
  const done = Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      while (running) {
        const name = `${prefix} ${loop}-${n++}`;
        let res;
        try {
          res = await session.call("POST", "/api/projects", { name, description: `Written by loop ${loop} under load.` });
        } catch {
          return; // the server is gone
        }
        if (res.status === 201) acked.push({ id: res.body.id, name });
        else failures.push(`${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
  return {
    acked,
    failures,
    done,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

export async function until(condition: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
