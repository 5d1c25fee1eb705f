import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type ServerProcess, startServer } from "./server-process";

/** Starts the production server on a free port with a fresh data directory, shared by the journeys. */

let server: ServerProcess | undefined;
let dataDir: string | undefined;

export default async function setup(project: TestProject) {
  if (!fs.existsSync("build/server.js")) throw new Error("Run `npm run build` before the e2e tests");
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-"));
  server = await startServer(dataDir, {
    // A plan that includes API keys, so the journey can create one.
    DEFAULT_PLAN: "starter",
    // Each browser context sends its own X-Forwarded-For (tests/e2e/browser.ts); no AI key anywhere:
    // the offline drafter answers, as on a fresh machine (both set by startServer).
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("dataDir", dataDir);

  return async () => {
    await server?.stop();
    fs.rmSync(dataDir!, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
