import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

/** Starts the production server on a free port with a fresh data directory. */

async function freePort() {
  return new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

let child: ChildProcess | undefined;
let dataDir: string | undefined;

export default async function setup(project: TestProject) {
  if (!fs.existsSync("build/server.js")) throw new Error("Run `npm run build` before the e2e tests");
  const port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_URL: baseUrl,
      // A plan that includes API keys, so the journey can create one.
      DEFAULT_PLAN: "starter",
      SMTP_URL: "",
      // Each browser context sends its own X-Forwarded-For (tests/e2e/browser.ts).
      TRUST_PROXY: "true",
      // No AI key anywhere: the offline drafter answers, as on a fresh machine.
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      GOOGLE_API_KEY: "",
      OPENAI_BASE_URL: "",
      ANTHROPIC_BASE_URL: "",
      GOOGLE_API_BASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`Server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide("baseUrl", baseUrl);
  project.provide("dataDir", dataDir);

  return async () => {
    child?.kill("SIGTERM");
    await new Promise((r) => child?.once("exit", r));
    fs.rmSync(dataDir!, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
