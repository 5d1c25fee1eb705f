import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";

/**
 * fly.toml, litefs.yml and the Dockerfile, checked against each other and
 * against the app's configuration (no Docker daemon or Fly API needed).
 */
const require = createRequire(import.meta.url);
// Both parsers are installed with the build tools (vite: yaml; @remix-run/dev: toml).
const YAML = require("yaml") as { parse(text: string): any };
const TOML = require("toml") as { parse(text: string): any };

const read = (file: string) => fs.readFileSync(path.resolve(file), "utf8");
const fly = TOML.parse(read("fly.toml"));
const flyEnv: Record<string, string> = fly.env;
/** litefs.yml with ${VAR} expanded from fly.toml's [env], as LiteFS does from the environment. */
const litefs = YAML.parse(read("litefs.yml").replace(/\$\{([A-Z_]+)\}/g, (m, name) => flyEnv[name] ?? m));
const dockerfile = read("Dockerfile");
const pkg = JSON.parse(read("package.json"));
/** The app's configuration under fly.toml's environment (secrets as `fly secrets set` gives them). */
const flyAppConfig = () =>
  parseConfig({
    ...flyEnv,
    DATA_DIR: fs.mkdtempSync(path.join(process.env.DATA_DIR!, "fly-")),
    SESSION_SECRET: "x".repeat(32),
    ENCRYPTION_KEY: "a".repeat(64),
  } as unknown as NodeJS.ProcessEnv);
const portOf = (addr: string) => Number(addr.slice(addr.lastIndexOf(":") + 1));

describe("fly.toml and litefs.yml", () => {
  it("route Fly -> LiteFS proxy -> app on the app's configured port", () => {
    const app = flyAppConfig();
    expect(fly.http_service.internal_port).toBe(Number(flyEnv.INTERNAL_PORT));
    expect(portOf(litefs.proxy.addr)).toBe(fly.http_service.internal_port);
    expect(portOf(litefs.proxy.target)).toBe(app.PORT);
    expect(app.PORT).not.toBe(fly.http_service.internal_port);
    expect(app.HOST).toBe("0.0.0.0");
  });

  it("put the app's database on the LiteFS mount and LiteFS's data on the volume", () => {
    expect(litefs.fuse.dir).toBe(flyEnv.LITEFS_DIR);
    expect(flyEnv.DATA_DIR).toBe(flyEnv.LITEFS_DIR);
    const app = flyAppConfig();
    // The proxy tracks the database the app opens (DATA_DIR/app.db).
    expect(litefs.proxy.db).toBe(path.basename(app.DATABASE_PATH));
    expect(litefs.data.dir.startsWith(`${fly.mounts.destination}/`)).toBe(true);
    expect(litefs.data.dir.startsWith(litefs.fuse.dir)).toBe(false);
  });

  it("hold the lease in Consul, migrate on the candidate only, then start the built server", () => {
    expect(litefs.lease.type).toBe("consul");
    expect(litefs.lease.promote).toBe(true);
    expect(litefs.lease.consul.url).toBe("${FLY_CONSUL_URL}");
    const [migrate, serve] = litefs.exec;
    expect(migrate["if-candidate"]).toBe(true);
    expect(migrate.cmd).toBe("node build/migrate.js");
    expect(serve["if-candidate"]).toBeUndefined();
    expect(serve.cmd).toMatch(/^node .*build\/server\.js$/);
    // Both files come out of `npm run build`.
    expect(pkg.scripts.build).toContain("--outfile=build/server.js");
    expect(pkg.scripts.build).toMatch(/esbuild .*\bmigrate=scripts\/migrate\.ts .*--outdir=build(\s|$)/);
  });

  it("health-check a route that exists and give the server time to drain on SIGTERM", () => {
    const [check] = fly.http_service.checks;
    expect(check.path).toBe("/api/health");
    expect(fs.existsSync("app/routes/api.health.ts")).toBe(true);
    expect(fly.kill_signal).toBe("SIGTERM");
    // server.ts cuts open streams 10 s after SIGTERM, then stops the worker after its job.
    const grace = Number(/closeAllConnections\(\), (\d[\d_]*)\)/.exec(read("server.ts"))![1]!.replace(/_/g, "")) / 1000;
    expect(fly.kill_timeout).toBeGreaterThanOrEqual(grace + 10);
    expect(fly.build.dockerfile).toBe("Dockerfile");
  });
});

describe("Dockerfile", () => {
  const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => ({ from: m[1], name: m[2] }));
  const stage = (name: string) => {
    const start = dockerfile.search(new RegExp(`^FROM \\S+ AS ${name}$`, "m"));
    const next = dockerfile.slice(start + 1).search(/^FROM /m);
    return next < 0 ? dockerfile.slice(start) : dockerfile.slice(start, start + 1 + next);
  };

  it("builds in its own stage and ships production dependencies only", () => {
    expect(stages.map((s) => s.name)).toEqual(["base", "build", "app", "litefs"]);
    expect(stage("build")).toMatch(/npm ci/);
    expect(stage("build")).toMatch(/npm run build && npm prune --omit=dev/);
    expect(stage("app")).not.toMatch(/npm (ci|install)|g\+\+|python3/);
    // The last stage is what fly deploy builds; fly.toml names it too.
    expect(stages.at(-1)!.name).toBe("litefs");
    expect(fly.build["build-target"]).toBe("litefs");
  });

  it("copies the build, the dependencies and every file the server reads at run time", () => {
    const app = stage("app");
    for (const dir of ["node_modules", "build", "app/domain/exports/pdf/fonts"]) {
      expect(app).toContain(`COPY --from=build --chown=node:node /app/${dir} ./${dir}`);
      expect(fs.existsSync(dir === "build" ? "package.json" : dir)).toBe(true);
    }
    expect(fs.existsSync("app/domain/exports/pdf/fonts/DejaVuSans.ttf")).toBe(true);
    expect(app).toMatch(/CMD \["node", "--max-semi-space-size=8", "--max-old-space-size=384", "build\/server\.js"\]/);
  });

  it("runs the plain container as a non-root user on the app's default port", () => {
    const app = stage("app");
    expect(app).toMatch(/^USER node$/m);
    const port = Number(/^EXPOSE (\d+)$/m.exec(app)![1]);
    expect(app).toContain(`PORT=${port}`);
    expect(app).toMatch(/DATA_DIR=\/data/);
  });

  it("runs LiteFS (root, for FUSE) with the same ports and paths as fly.toml", () => {
    const lfs = stage("litefs");
    expect(lfs).toMatch(/^USER root$/m);
    expect(lfs).toContain("COPY litefs.yml /etc/litefs.yml");
    expect(lfs).toMatch(/ENTRYPOINT \["litefs", "mount"\]/);
    expect(lfs).toContain(`EXPOSE ${fly.http_service.internal_port}`);
    for (const key of ["PORT", "INTERNAL_PORT", "LITEFS_DIR", "DATA_DIR"]) expect(lfs).toContain(`${key}=${flyEnv[key]}`);
  });
});
