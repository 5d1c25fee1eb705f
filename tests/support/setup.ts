import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest";

// Most files share one process (vite.config.ts: the "shared" project), so a file
// starts from the environment the process began with, whatever the one before set.
const start = globalThis as { __pristineEnv?: NodeJS.ProcessEnv };
if (start.__pristineEnv) {
  for (const key of Object.keys(process.env)) if (!(key in start.__pristineEnv)) delete process.env[key];
  Object.assign(process.env, start.__pristineEnv);
} else {
  start.__pristineEnv = { ...process.env };
}

// A fresh data directory (and so a fresh database) per test file.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-test-"));
process.env.DATA_DIR = dir;
process.env.NODE_ENV = "test";
process.env.APP_URL = "http://localhost:3000";
delete process.env.SMTP_URL;
for (const key of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_API_BASE_URL"]) {
  delete process.env[key];
}
// Provider calls in tests fail at once instead of retrying.
process.env.AI_MAX_RETRIES = "0";
// In a shared process the modules outlive a file: the configuration is read anew from this file's environment.
(await import("~/config.server")).resetConfigForTests();
// Event listeners a file subscribes (tests record events with their own) end with it.
const { listeners } = await import("~/domain/events/events.server");
const listenersBefore = new Map(listeners);

beforeAll(async () => {
  const { migrateToLatest } = await import("#db/client");
  const { db } = await import("~/db.server");
  await migrateToLatest(db);
});

// A console.error during a test fails it, unless the test expects one. The
// logger's error lines go through console.error too; its other lines are dropped.
let errorSpy: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  errorSpy = vi.spyOn(console, "error");
  const { setLogSink } = await import("~/utils/log.server");
  setLogSink((line) => {
    if (line.startsWith('{"level":"error"')) console.error(line);
  });
});
afterEach(() => {
  const calls = errorSpy.mock.calls;
  errorSpy.mockClear();
  expect(calls, "console.error was called").toEqual([]);
});

afterAll(async () => {
  listeners.clear();
  for (const [name, listener] of listenersBefore) listeners.set(name, listener);
  // Nor do spies, fake timers or stubbed globals outlive the file.
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // Worker threads a file started end with it (the next file in this process counts its own).
  await (await import("~/ai/builtin/offline-pool.server")).stopOfflineWorkers();
  await (await import("~/domain/exports/render-pool.server")).stopRenderWorkers();
  const { closeDb } = await import("~/db.server");
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});
