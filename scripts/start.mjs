#!/usr/bin/env node
/**
 * `npm start`: serve the production build, building it first only when it is
 * missing or older than the sources (a fresh clone, or after `git pull`).
 * An up-to-date build starts at once: no compiler runs on the start path.
 * `--build-only` stops after that check (the benchmarks use it).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const output = path.join(root, "build/server.js");
const SOURCES = ["app", "db", "public", "server.ts", "vite.config.ts", "tsconfig.json", "package.json", "package-lock.json"];
// The operator tools bundled beside the server (build/migrate.js, build/backup.js, ...).
const TOOLS = ["migrate", "backup", "restore", "create-superadmin", "rotate-encryption-key", "outbox"].map((t) => `scripts/${t}.ts`);

/** The newest modification time under a file or folder (0 when it does not exist). */
function newest(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

const built = newest(output);
const sources = Math.max(...[...SOURCES, ...TOOLS].map((s) => newest(path.join(root, s))));
if (!built || sources > built) {
  console.log(built ? "Sources changed since the last build: building…" : "No build yet: building…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv.includes("--build-only")) process.exit(0);

process.env.NODE_ENV ??= "production";
process.chdir(root);
await import(output);
