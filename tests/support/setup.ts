import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest";

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
  const { closeDb } = await import("~/db.server");
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});
