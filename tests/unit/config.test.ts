import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Config, ConfigError, parseConfig } from "~/config.server";
import { RateLimiter, rateHeaders } from "~/utils/rate-limiter.server";

const dirs: string[] = [];
function freshDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-config-test-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** parseConfig over exactly these variables (no NODE_ENV etc. unless given). */
const parse = (vars: Record<string, string>) => parseConfig(vars as NodeJS.ProcessEnv);

/** parseConfig must throw a ConfigError whose message names `variable`. */
function expectConfigError(env: Record<string, string>, variable: string) {
  let caught: unknown;
  try {
    parse(env);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  expect((caught as Error).message).toContain(variable);
  return caught as ConfigError;
}

const SECRET_A = "a".repeat(40);
const SECRET_B = "b".repeat(36);

describe("parseConfig", () => {
  it("applies defaults given only DATA_DIR, and resolves DATA_DIR to an absolute path", () => {
    const dir = freshDir();
    const relative = path.relative(process.cwd(), dir);
    expect(path.isAbsolute(relative)).toBe(false);

    const cfg = parse({ DATA_DIR: relative });
    expect(cfg.PORT).toBe(3000);
    expect(cfg.DEFAULT_PLAN).toBe("free");
    expect(cfg.DATA_DIR).toBe(dir);
    expect(path.isAbsolute(cfg.DATA_DIR)).toBe(true);
    expect(cfg.DATABASE_PATH).toBe(path.join(dir, "app.db"));
    expect(cfg.SMTP_URL).toBeUndefined();
    expect(cfg.APP_URL).toBeUndefined();
    expect(cfg.SUPERADMIN_EMAILS).toEqual([]);
    expect(cfg.ALLOW_PRIVATE_WEBHOOK_TARGETS).toBe(false);
    expect(cfg.TRUST_PROXY).toBe(false);
  });

  it("reads valid values from the environment", () => {
    const cfg = parse({
      DATA_DIR: freshDir(),
      PORT: "8080",
      DEFAULT_PLAN: "pro",
      SMTP_URL: "smtp://mail.example.com:2525",
      APP_URL: "https://prd.example.com/",
      ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
    });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.DEFAULT_PLAN).toBe("pro");
    expect(cfg.SMTP_URL).toBe("smtp://mail.example.com:2525");
    expect(cfg.APP_URL).toBe("https://prd.example.com");
    expect(cfg.ALLOW_PRIVATE_WEBHOOK_TARGETS).toBe(true);
  });

  it("PORT=abc is a ConfigError naming PORT", () => {
    expectConfigError({ DATA_DIR: freshDir(), PORT: "abc" }, "PORT");
  });

  it("an out-of-range PORT is a ConfigError naming PORT", () => {
    expectConfigError({ DATA_DIR: freshDir(), PORT: "70000" }, "PORT");
  });

  it("DEFAULT_PLAN=gold is a ConfigError naming DEFAULT_PLAN", () => {
    const error = expectConfigError({ DATA_DIR: freshDir(), DEFAULT_PLAN: "gold" }, "DEFAULT_PLAN");
    expect(error.message).not.toContain("PORT");
  });

  it("SMTP_URL=not-a-url is a ConfigError naming SMTP_URL", () => {
    expectConfigError({ DATA_DIR: freshDir(), SMTP_URL: "not-a-url" }, "SMTP_URL");
  });

  it("names every invalid variable at once", () => {
    const error = expectConfigError({ DATA_DIR: freshDir(), PORT: "abc", DEFAULT_PLAN: "gold", SMTP_URL: "not-a-url" }, "PORT");
    expect(error.message).toContain("DEFAULT_PLAN");
    expect(error.message).toContain("SMTP_URL");
  });

  it("generates absent secrets once into DATA_DIR/secrets.json and reuses them", () => {
    const dir = freshDir();
    const file = path.join(dir, "secrets.json");
    expect(fs.existsSync(file)).toBe(false);

    const first = parse({ DATA_DIR: dir });
    expect(fs.existsSync(file)).toBe(true);
    expect(first.SESSION_SECRETS).toHaveLength(1);
    expect(first.SESSION_SECRETS[0]!.length).toBeGreaterThanOrEqual(32);
    expect(first.ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(stored.sessionSecret).toBe(first.SESSION_SECRETS[0]);
    expect(stored.encryptionKey).toBe(first.ENCRYPTION_KEY);

    const second = parse({ DATA_DIR: dir });
    expect(second.SESSION_SECRETS).toEqual(first.SESSION_SECRETS);
    expect(second.ENCRYPTION_KEY).toBe(first.ENCRYPTION_KEY);

    // A different data directory gets different secrets.
    const other = parse({ DATA_DIR: freshDir() });
    expect(other.SESSION_SECRETS).not.toEqual(first.SESSION_SECRETS);
    expect(other.ENCRYPTION_KEY).not.toBe(first.ENCRYPTION_KEY);
  });

  it("uses secrets from the environment without generating any", () => {
    const dir = freshDir();
    const key = "0123456789abcdef".repeat(4);
    const cfg = parse({ DATA_DIR: dir, SESSION_SECRET: SECRET_A, ENCRYPTION_KEY: key });
    expect(cfg.SESSION_SECRETS).toEqual([SECRET_A]);
    expect(cfg.ENCRYPTION_KEY).toBe(key);
    expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
  });

  it("a comma-separated SESSION_SECRET gives one entry per secret (rotation)", () => {
    const cfg = parse({ DATA_DIR: freshDir(), SESSION_SECRET: `${SECRET_A},${SECRET_B}` });
    expect(cfg.SESSION_SECRETS).toEqual([SECRET_A, SECRET_B]);
  });

  it("every SESSION_SECRET entry must itself be a strong secret (no empty or short signing key)", () => {
    // Remix signs with the first secret: ",<long>" or "x,<long>" would sign cookies with "" or "x".
    expectConfigError({ DATA_DIR: freshDir(), SESSION_SECRET: `,${SECRET_A}` }, "SESSION_SECRET");
    expectConfigError({ DATA_DIR: freshDir(), SESSION_SECRET: `x,${SECRET_A}` }, "SESSION_SECRET");
    expectConfigError({ DATA_DIR: freshDir(), SESSION_SECRET: `${SECRET_A},short` }, "SESSION_SECRET");
  });

  it("an empty PORT does not silently become port 0", () => {
    // Either the default applies or start-up stops naming PORT; listening on a random port is neither.
    let cfg: Config | undefined;
    try {
      cfg = parse({ DATA_DIR: freshDir(), PORT: "" });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain("PORT");
      return;
    }
    expect(cfg.PORT).toBe(3000);
  });

  it("a malformed ENCRYPTION_KEY is a ConfigError naming ENCRYPTION_KEY", () => {
    expectConfigError({ DATA_DIR: freshDir(), ENCRYPTION_KEY: "xyz" }, "ENCRYPTION_KEY");
  });

  it("SUPERADMIN_EMAILS is parsed into a trimmed lower-case list", () => {
    const cfg = parse({
      DATA_DIR: freshDir(),
      SUPERADMIN_EMAILS: " Admin@Example.COM, ops@example.com ,,ROOT@Example.org ",
    });
    expect(cfg.SUPERADMIN_EMAILS).toEqual(["admin@example.com", "ops@example.com", "root@example.org"]);
  });
});

describe("RateLimiter", () => {
  const T0 = 1_700_000_000_000;

  it("counts hits in a fixed window and refuses past the limit", () => {
    const limiter = new RateLimiter(60_000);
    const results = [1, 2, 3, 4].map((i) => limiter.hit("user:1", 3, T0 + i * 1000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    for (const r of results) {
      expect(r.limit).toBe(3);
      // The window started at the first hit and does not slide.
      expect(r.reset).toBe(Math.ceil((T0 + 1000 + 60_000) / 1000));
    }
  });

  it("keeps separate counters per key", () => {
    const limiter = new RateLimiter(60_000);
    expect(limiter.hit("a", 1, T0).allowed).toBe(true);
    expect(limiter.hit("a", 1, T0 + 1).allowed).toBe(false);
    expect(limiter.hit("b", 1, T0 + 2).allowed).toBe(true);
  });

  it("starts a new window once the previous one has passed", () => {
    const limiter = new RateLimiter(60_000);
    expect(limiter.hit("k", 2, T0).allowed).toBe(true);
    expect(limiter.hit("k", 2, T0 + 10_000).allowed).toBe(true);
    expect(limiter.hit("k", 2, T0 + 59_999).allowed).toBe(false);

    const fresh = limiter.hit("k", 2, T0 + 60_000);
    expect(fresh.allowed).toBe(true);
    expect(fresh.remaining).toBe(1);
    expect(fresh.reset).toBe(Math.ceil((T0 + 120_000) / 1000));
  });

  it("reset() clears every counter", () => {
    const limiter = new RateLimiter(60_000);
    limiter.hit("k", 1, T0);
    expect(limiter.hit("k", 1, T0 + 1).allowed).toBe(false);
    limiter.reset();
    expect(limiter.hit("k", 1, T0 + 2).allowed).toBe(true);
  });

  it("rateHeaders gives Retry-After only when over the limit", () => {
    const limiter = new RateLimiter(60_000);
    const ok = limiter.hit("h", 1, T0);
    const okHeaders = rateHeaders(ok, T0);
    expect(okHeaders).toEqual({
      "X-RateLimit-Limit": "1",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(Math.ceil((T0 + 60_000) / 1000)),
    });
    expect(okHeaders).not.toHaveProperty("Retry-After");

    const over = limiter.hit("h", 1, T0 + 15_000);
    const overHeaders = rateHeaders(over, T0 + 15_000);
    expect(overHeaders["Retry-After"]).toBe("45");
    expect(overHeaders["X-RateLimit-Limit"]).toBe("1");
    expect(overHeaders["X-RateLimit-Remaining"]).toBe("0");
    expect(overHeaders["X-RateLimit-Reset"]).toBe(String(Math.ceil((T0 + 60_000) / 1000)));
  });

  it("Retry-After is at least 1 second", () => {
    const limiter = new RateLimiter(60_000);
    limiter.hit("h", 1, T0);
    const over = limiter.hit("h", 1, T0 + 59_900);
    expect(rateHeaders(over, T0 + 59_900)["Retry-After"]).toBe("1");
  });
});
