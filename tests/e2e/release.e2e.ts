import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

/**
 * The release artifact (npm run release) starts on a clean data directory
 * with one command, serves, and stops cleanly on SIGTERM.
 */

const out = fs.mkdtempSync(path.join(os.tmpdir(), "prd-release-"));
const version = JSON.parse(fs.readFileSync("package.json", "utf8")).version;
const dir = path.join(out, `prd-studio-${version}`);

afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

async function freePort() {
  return new Promise<number>((resolve) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

it("assembles a self-contained directory that starts with start.sh on a clean data directory", { timeout: 120_000 }, async () => {
  const built = spawnSync(process.execPath, ["scripts/release.mjs", "--out", out, "--no-tar", "--reuse-build"], {
    encoding: "utf8",
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST"))) as NodeJS.ProcessEnv,
  });
  expect(built.status, built.stderr).toBe(0);

  const tools = ["migrate", "backup", "restore", "admin-create", "secrets-rotate", "mail-outbox"].map((t) => `build/${t}.js`);
  for (const file of ["start.sh", "build/server.js", ...tools, "prd-studio.service", "README.md", "app/domain/exports/pdf/fonts/DejaVuSans.ttf"]) {
    expect(fs.existsSync(path.join(dir, file)), file).toBe(true);
  }
  // Production dependencies only, native addons included.
  expect(fs.existsSync(path.join(dir, "node_modules/better-sqlite3"))).toBe(true);
  expect(fs.existsSync(path.join(dir, "node_modules/vitest"))).toBe(false);
  expect(fs.existsSync(path.join(dir, "node_modules/esbuild"))).toBe(false);
  expect(fs.readFileSync(path.join(dir, "prd-studio.service"), "utf8")).toContain("ExecStart=/opt/prd-studio/start.sh");

  const port = await freePort();
  const data = path.join(out, "data"); // does not exist yet: the server creates it
  // A clean environment: no variable of this checkout leaks into the artifact.
  const child = spawn(path.join(dir, "start.sh"), [], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH!, HOME: out, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: data } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  try {
    await expect
      .poll(
        async () =>
          (
            await fetch(`${base}/api/health`)
              .then((r) => r.json())
              .catch(() => null)
          )?.status,
        { timeout: 30_000, interval: 200 },
      )
      .toBe("ok");
    const res = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ name: "Release User", email: "release@example.com", password: "Correct-Horse-9" }),
    });
    expect(res.status, log).toBe(201);
    expect(fs.existsSync(path.join(data, "app.db"))).toBe(true);
    expect(fs.existsSync(path.join(data, "secrets.json"))).toBe(true);
  } finally {
    child.kill("SIGTERM");
  }
  expect(await exited, log).toBe(0);
  expect(log).toContain("Shut down cleanly");

  // The operator tools run from the artifact with plain node: no sources there to run.
  expect(fs.existsSync(path.join(dir, "scripts"))).toBe(false);
  expect(fs.existsSync(path.join(dir, "app/ops"))).toBe(false);
  const tool = (name: string, ...args: string[]) =>
    spawnSync(process.execPath, [`build/${name}.js`, ...args], {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH!, HOME: out, NODE_ENV: "production", DATA_DIR: data } as unknown as NodeJS.ProcessEnv,
    });
  const admin = tool("admin-create", "ops@example.com", "Ops Admin");
  expect(admin.status, admin.stderr).toBe(0);
  expect(admin.stdout).toContain("SUPERADMIN_EMAILS=ops@example.com");
  const outbox = tool("mail-outbox", "ops@example.com");
  expect(outbox.status, outbox.stderr).toBe(0);
  expect(outbox.stdout).toContain("No messages to ops@example.com.");
  const backups = path.join(out, "backups");
  const backup = tool("backup", backups);
  expect(backup.status, backup.stderr).toBe(0);
  expect(backup.stdout).toContain("integrity ok");
  const file = fs.readdirSync(backups).find((f) => /^app-.*\.db$/.test(f))!;
  const restore = tool("restore", path.join(backups, file));
  expect(restore.status, restore.stderr).toBe(0);
  expect(fs.readdirSync(data).some((f) => f.startsWith("app.db.pre-restore-"))).toBe(true);
});
