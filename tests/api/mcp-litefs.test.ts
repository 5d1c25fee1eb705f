import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * /mcp on a LiteFS replica: every MCP call is a POST and is replayed on the
 * primary (fly-replay), before the key is even looked at, as /api writes are.
 * LiteFS is simulated by its mount layout (tests/api/litefs.test.ts).
 */
const litefsDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-mcp-litefs-"));
process.env.LITEFS_DIR = litefsDir;
const { resetConfigForTests } = await import("~/config.server");
resetConfigForTests();
const { serveApp } = await import("../support/serve");

const marker = path.join(litefsDir, ".primary");
let app: Awaited<ReturnType<typeof serveApp>>;

beforeAll(async () => {
  app = await serveApp();
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(marker, { force: true });
  delete process.env.LITEFS_DIR;
  resetConfigForTests();
  fs.rmSync(litefsDir, { recursive: true, force: true });
});

const post = () =>
  fetch(`${app.url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer svc_${"2".repeat(40)}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

describe("/mcp under LiteFS", () => {
  it("replays POSTs to the primary from a replica", async () => {
    fs.writeFileSync(marker, "machine-b\n");
    const res = await post();
    expect(res.status).toBe(409);
    expect(res.headers.get("fly-replay")).toBe("instance=machine-b");
  });

  it("answers on the primary (here: 401 for an unknown key)", async () => {
    fs.rmSync(marker, { force: true });
    const res = await post();
    expect(res.status).toBe(401);
    expect(res.headers.get("fly-replay")).toBeNull();
  });
});
