import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { TestClient } from "../support/client";

/**
 * The served /api/openapi.json passes Redocly's recommended ruleset (plus
 * redocly.yaml, which says why it changes any rule) with no error and no
 * warning.
 */

const run = promisify(execFile);

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

describe("/api/openapi.json lint", () => {
  it("has no Redocly errors or warnings", async () => {
    const res = await new TestClient().get("/api/openapi.json");
    expect(res.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
    const file = path.join(dir, "openapi.json");
    fs.writeFileSync(file, res.text);
    try {
      const cli = path.resolve("node_modules/.bin/redocly");
      const { stdout } = await run(cli, ["lint", file, "--config", path.resolve("redocly.yaml"), "--format=json"], {
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      }).catch((error: { stdout?: string; stderr?: string }) => {
        // Exit code 1 when there are errors: the report is still on stdout.
        if (!error.stdout) throw new Error(`redocly lint failed: ${error.stderr ?? String(error)}`);
        return { stdout: error.stdout };
      });
      const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
      const listed = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
      expect(listed).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
