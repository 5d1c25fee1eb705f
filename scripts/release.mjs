#!/usr/bin/env node
/**
 * `npm run release`: a self-contained directory a self-hoster copies to a VM
 * and starts with one command (docs/operations.md, "Single VM"), plus its
 * tarball. It holds the build, the production dependencies (native addons
 * built for this platform and Node ABI), the PDF fonts, start.sh and a systemd
 * unit. A Node single-executable application is not possible: better-sqlite3,
 * sharp and @node-rs/argon2 are native addons loaded from node_modules.
 *
 *   node scripts/release.mjs [--out DIR] [--no-tar] [--reuse-build]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const args = process.argv.slice(2);
const outDir = path.resolve(args.includes("--out") ? args[args.indexOf("--out") + 1] : path.join(root, "release"));
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const name = `prd-studio-${pkg.version}`;
const target = path.join(outDir, name);
const platform = `${process.platform}-${process.arch}`;

function run(cmd, cmdArgs, cwd) {
  // Never inherit a test runner's VITEST: the Vite config would drop Remix and the build fail.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST")));
  const result = spawnSync(cmd, cmdArgs, { cwd, stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(" ")} failed (${result.status ?? result.signal})`);
}

// 1. An up-to-date build (start.mjs builds only when the sources changed);
// --reuse-build takes build/ as it is (the e2e suite has just built it).
const hasBuild = ["build/server.js", "build/migrate.js"].every((f) => fs.existsSync(path.join(root, f)));
if (!(args.includes("--reuse-build") && hasBuild)) {
  run(process.execPath, ["scripts/start.mjs", "--build-only"], root);
  if (!fs.existsSync(path.join(root, "build/migrate.js"))) run("npm", ["run", "build"], root);
}

// 2. The files the server reads at run time, and nothing else.
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
const copy = (rel) => fs.cpSync(path.join(root, rel), path.join(target, rel), { recursive: true, verbatimSymlinks: true });
for (const rel of ["build", "package.json", "package-lock.json", ".npmrc", "app/domain/exports/pdf/fonts"]) copy(rel);

// 3. Production dependencies: the installed tree (patched, native addons
// already built) pruned of dev dependencies. No network, no compiler.
copy("node_modules");
run("npm", ["prune", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], target);

// 4. The start script, the systemd unit and a README.
const abi = process.versions.modules;
fs.writeFileSync(
  path.join(target, "start.sh"),
  `#!/bin/sh
# Starts PRD Studio from this directory. All state lives in DATA_DIR
# (default: ./data next to this script). Other settings: docs/operations.md.
set -e
cd "$(dirname "$0")"
if [ "$(node -p process.versions.modules 2>/dev/null)" != "${abi}" ]; then
  echo "PRD Studio ${pkg.version} was built for Node ${process.versions.node} (ABI ${abi}); install Node ${process.versions.node.split(".")[0]}.x." >&2
  exit 1
fi
export NODE_ENV="\${NODE_ENV:-production}"
export DATA_DIR="\${DATA_DIR:-$PWD/data}"
exec node --max-semi-space-size=8 --max-old-space-size=384 build/server.js
`,
  { mode: 0o755 },
);
const unit = `[Unit]
Description=PRD Studio
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=prd-studio
Group=prd-studio
WorkingDirectory=/opt/prd-studio
Environment=PORT=3000
Environment=DATA_DIR=/var/lib/prd-studio
EnvironmentFile=-/etc/prd-studio.env
ExecStart=/opt/prd-studio/start.sh
KillSignal=SIGTERM
TimeoutStopSec=30
Restart=on-failure
RestartSec=2
StateDirectory=prd-studio
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=true
PrivateTmp=true
ReadWritePaths=/var/lib/prd-studio

[Install]
WantedBy=multi-user.target
`;
fs.writeFileSync(path.join(target, "prd-studio.service"), unit);
fs.writeFileSync(
  path.join(target, "README.md"),
  `# PRD Studio ${pkg.version} (${platform}, Node ${process.versions.node})

Needs Node ${process.versions.node.split(".")[0]}.x on ${platform} (glibc); the native addons in
node_modules were built for it. Optional: chromium (diagrams in PDF/DOCX
exports, CHROMIUM_PATH, default /usr/bin/chromium).

    ./start.sh                      # serves on PORT (3000), data in ./data
    PORT=8080 DATA_DIR=/var/lib/prd-studio ./start.sh

DATA_DIR is the only state: app.db (SQLite) and secrets.json (generated
SESSION_SECRET and ENCRYPTION_KEY unless set). Migrations run at start.

## systemd

    sudo useradd --system --home /var/lib/prd-studio prd-studio
    sudo cp -r . /opt/prd-studio
    sudo cp prd-studio.service /etc/systemd/system/
    sudo systemctl enable --now prd-studio

Settings (APP_URL, SMTP_URL, ...) go in /etc/prd-studio.env, one NAME=value
per line.

## Operator tools

Run from this directory with the server's DATA_DIR:

    node build/backup.js /mnt/backups          # online backup, safe while serving
    node build/restore.js /mnt/backups/app-<timestamp>.db   # with the server stopped
    node build/admin-create.js admin@example.com "Ada Admin"
    node build/secrets-rotate.js               # with the server stopped
    node build/mail-outbox.js someone@example.com   # links the app never shows without SMTP

\`\`\`ini
${unit}\`\`\`
`,
);

// 5. The tarball.
if (!args.includes("--no-tar")) {
  const tarball = path.join(outDir, `${name}-${platform}.tar.gz`);
  run("tar", ["-czf", tarball, "-C", outDir, name], root);
  console.log(`Release: ${tarball}`);
}
console.log(`Release directory: ${target}`);
