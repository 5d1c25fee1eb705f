import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod/v4";
import { ensurePrivateDir } from "#db/private-files";
import { LANES, laneSettingsSchema, QUEUES } from "~/jobs/lanes";

/**
 * All configuration, parsed once from the environment (docs/operations.md,
 * "Configuration"). A wrong value stops start-up with a message naming the
 * variable. Secrets that are absent are generated once into DATA_DIR.
 */

const PLAN_IDS = ["free", "starter", "pro", "enterprise"] as const;

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** An empty variable counts as unset, so its default applies. */
const unsetIfBlank = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema);

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: unsetIfBlank(z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.string().default("0.0.0.0"),
  APP_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default("./data"),
  DEFAULT_PLAN: z.enum(PLAN_IDS).default("free"),
  SUPERADMIN_EMAILS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default("PRD Studio <no-reply@localhost>"),
  /** SMTP: the bound on connecting and on the server's greeting; an idle socket mid-message is cut after twice this. */
  SMTP_TIMEOUT_MS: unsetIfBlank(z.coerce.number().int().min(100).max(120_000).default(10_000)),
  ALLOW_PRIVATE_WEBHOOK_TARGETS: bool,
  TRUST_PROXY: bool,
  SESSION_SECRET: unsetIfBlank(
    z
      .string()
      .transform((v) => v.split(",").map((s) => s.trim()))
      .refine((list) => list.every((s) => s.length >= 32), "every comma-separated secret needs at least 32 characters")
      .optional(),
  ),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, "must be 64 hexadecimal characters (32 bytes)")
    .optional(),
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  GOOGLE_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_BASE_URL: optionalUrl,
  GOOGLE_API_BASE_URL: optionalUrl,
  OPENAI_MODEL: unsetIfBlank(z.string().default("gpt-4o-mini")),
  ANTHROPIC_MODEL: unsetIfBlank(z.string().default("claude-sonnet-5-5")),
  GOOGLE_MODEL: unsetIfBlank(z.string().default("gemini-2.5-flash")),
  OPENAI_EMBEDDING_MODEL: unsetIfBlank(z.string().default("text-embedding-3-small")),
  GOOGLE_EMBEDDING_MODEL: unsetIfBlank(z.string().default("text-embedding-004")),
  /** Time one attempt of a provider call has to start answering (its headers); the AI_STREAM_* bounds cover the rest. */
  AI_TIMEOUT_MS: unsetIfBlank(z.coerce.number().int().min(1000).max(600_000).default(120_000)),
  /** Retries of a provider call that failed before any output (429, 5xx, network). */
  AI_MAX_RETRIES: unsetIfBlank(z.coerce.number().int().min(0).max(5).default(1)),
  /** Longest silence of a provider once its answer has started (headers): between two chunks of a stream, or until a non-streamed body is read. */
  AI_STREAM_IDLE_MS: unsetIfBlank(z.coerce.number().int().min(100).max(600_000).default(30_000)),
  /** Longest any one provider call may take from start to last byte, retries included (a stream that trickles is cut here). */
  AI_STREAM_TOTAL_MS: unsetIfBlank(z.coerce.number().int().min(500).max(3_600_000).default(300_000)),
  /** Upper bound of output tokens asked for per call; tasks ask for less when they need less. */
  AI_MAX_OUTPUT_TOKENS: unsetIfBlank(z.coerce.number().int().min(256).max(64_000).default(8000)),
  LITEFS_DIR: z.string().optional(),
  MAX_JSON_BODY_BYTES: unsetIfBlank(z.coerce.number().int().positive().default(1_048_576)),
  /** Largest body of a page's form post (not an upload): larger ones are refused with 413 before any route reads them (app/http/server/body-guard.server.ts). */
  MAX_FORM_BODY_BYTES: unsetIfBlank(z.coerce.number().int().positive().default(1_048_576)),
  /** Payment provider for plan changes: `local` (in-app confirmation) or `stripe`. */
  BILLING_PROVIDER: unsetIfBlank(z.enum(["local", "stripe"]).default("local")),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_STARTER_MONTHLY: z.string().optional(),
  STRIPE_PRICE_STARTER_ANNUAL: z.string().optional(),
  STRIPE_PRICE_PRO_MONTHLY: z.string().optional(),
  STRIPE_PRICE_PRO_ANNUAL: z.string().optional(),
  STRIPE_PRICE_ENTERPRISE_MONTHLY: z.string().optional(),
  STRIPE_PRICE_ENTERPRISE_ANNUAL: z.string().optional(),
  /**
   * Workspace integrations: OAuth clients and service base URLs.
   * An integration without a client id is "not configured": connect answers
   * 409 naming these variables. Defaults are the real services' URLs.
   */
  NOTES_CLIENT_ID: z.string().optional(),
  NOTES_CLIENT_SECRET: z.string().optional(),
  NOTES_AUTH_URL: unsetIfBlank(z.url().default("https://api.notion.com/v1/oauth/authorize")),
  NOTES_TOKEN_URL: unsetIfBlank(z.url().default("https://api.notion.com/v1/oauth/token")),
  NOTES_API_URL: unsetIfBlank(z.url().default("https://api.notion.com")),
  WIKI_CLIENT_ID: z.string().optional(),
  WIKI_CLIENT_SECRET: z.string().optional(),
  WIKI_AUTH_URL: unsetIfBlank(z.url().default("https://auth.atlassian.com/authorize")),
  WIKI_TOKEN_URL: unsetIfBlank(z.url().default("https://auth.atlassian.com/oauth/token")),
  WIKI_API_URL: unsetIfBlank(z.url().default("https://api.atlassian.com")),
  DOCS_CLIENT_ID: z.string().optional(),
  DOCS_CLIENT_SECRET: z.string().optional(),
  DOCS_AUTH_URL: unsetIfBlank(z.url().default("https://accounts.google.com/o/oauth2/v2/auth")),
  DOCS_TOKEN_URL: unsetIfBlank(z.url().default("https://oauth2.googleapis.com/token")),
  DOCS_API_URL: unsetIfBlank(z.url().default("https://www.googleapis.com")),
  /** GitHub's REST API (GitHub Enterprise: https://HOST/api/v3), for issue-tracker sync (docs/trackers.md). */
  GITHUB_API_URL: unsetIfBlank(z.url().default("https://api.github.com")),
  /** Linear's GraphQL endpoint, for issue-tracker sync (docs/trackers.md); tests point it at a stand-in. */
  LINEAR_API_URL: unsetIfBlank(z.url().default("https://api.linear.app/graphql")),
  /** Jira sites other than https://*.atlassian.net an admin may connect (comma-separated hosts, e.g. jira.example.com): Data Center, tests (docs/trackers.md). */
  JIRA_ALLOWED_HOSTS: z.string().optional(),
  /**
   * Issue trackers connected with OAuth (docs/trackers.md, "Connecting with OAuth"): each service's OAuth client.
   * A service without its client id and secret offers tokens only. The URLs default to the real services.
   */
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  /** Where GitHub's OAuth pages live: {base}/login/oauth/authorize and {base}/login/oauth/access_token (GitHub Enterprise: https://HOST). */
  GITHUB_OAUTH_URL: unsetIfBlank(z.url().default("https://github.com")),
  LINEAR_CLIENT_ID: z.string().optional(),
  LINEAR_CLIENT_SECRET: z.string().optional(),
  LINEAR_AUTH_URL: unsetIfBlank(z.url().default("https://linear.app/oauth/authorize")),
  LINEAR_TOKEN_URL: unsetIfBlank(z.url().default("https://api.linear.app/oauth/token")),
  JIRA_CLIENT_ID: z.string().optional(),
  JIRA_CLIENT_SECRET: z.string().optional(),
  JIRA_AUTH_URL: unsetIfBlank(z.url().default("https://auth.atlassian.com/authorize")),
  JIRA_TOKEN_URL: unsetIfBlank(z.url().default("https://auth.atlassian.com/oauth/token")),
  /** Atlassian's API gateway: /oauth/token/accessible-resources and the Jira REST API under /ex/jira/{cloudId}. */
  JIRA_API_URL: unsetIfBlank(z.url().default("https://api.atlassian.com")),
  /** Slack (docs/integrations.md): the app's OAuth client; unset hides Slack from members. SLACK_API_URL: tests and proxies. */
  SLACK_CLIENT_ID: z.string().optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  SLACK_API_URL: unsetIfBlank(z.url().default("https://slack.com/api/")),
  /** Live editing: a pause in typing this long (ms) saves the live PRD as a version (docs/design/live-editing.md). */
  LIVE_IDLE_MS: unsetIfBlank(z.coerce.number().int().min(100).max(600_000).default(10_000)),
  /** Live editing: open streams one user may hold (all projects), and one project may have (all users); beyond, 429. */
  LIVE_MAX_STREAMS_PER_USER: unsetIfBlank(z.coerce.number().int().min(1).max(1000).default(8)),
  LIVE_MAX_STREAMS_PER_PROJECT: unsetIfBlank(z.coerce.number().int().min(1).max(10_000).default(50)),
  /** Live editing: documents held in memory at once, and the memory (MB, estimated) they may take; the least recently used leave first. */
  LIVE_MAX_DOCS: unsetIfBlank(z.coerce.number().int().min(1).max(10_000).default(50)),
  LIVE_MEMORY_MB: unsetIfBlank(z.coerce.number().int().min(16).max(65_536).default(160)),
  /** Live editing: Yjs items one document may hold (about 360 bytes of memory each); the largest PRD a save accepts takes about 190,000. */
  LIVE_MAX_DOC_ITEMS: unsetIfBlank(z.coerce.number().int().min(1000).max(10_000_000).default(250_000)),
  /** Operations: log level of the JSON-lines logger on stdout. */
  LOG_LEVEL: unsetIfBlank(z.enum(["debug", "info", "warn", "error", "silent"]).default("info")),
  /** Bearer token for GET /metrics (Prometheus); unset disables the endpoint (404). */
  METRICS_TOKEN: unsetIfBlank(z.string().min(16, "needs at least 16 characters").optional()),
  /** /api/health: the job queue is unhealthy when its oldest due job waits longer than this. */
  HEALTH_MAX_QUEUE_LAG_SECONDS: unsetIfBlank(z.coerce.number().int().min(1).default(300)),
  /** … per queue, overriding it: `mail=60,webhooks=600` (lanes and `events`; app/jobs/lanes.ts). */
  HEALTH_QUEUE_LAG_SECONDS: laneSettingsSchema(QUEUES, { min: 1, max: 86_400, integer: true }),
  /** Background jobs: how many of each lane run at once, `webhooks=8,mail=4` (app/jobs/lanes.ts has the defaults). */
  JOB_CONCURRENCY: laneSettingsSchema(LANES, { min: 1, max: 64, integer: true }),
  /** … and how long one job of a lane may run before it is failed and retried, in seconds: `exports=1800`. */
  JOB_TIMEOUT_SECONDS: laneSettingsSchema(LANES, { min: 0.1, max: 86_400, integer: false }),
  /** /api/health: the disk holding DATA_DIR is unhealthy below this many free bytes … */
  HEALTH_MIN_FREE_BYTES: unsetIfBlank(
    z.coerce
      .number()
      .int()
      .min(0)
      .default(100 * 1024 * 1024),
  ),
  /** … or below this share of its size, in percent. */
  HEALTH_MIN_FREE_PERCENT: unsetIfBlank(z.coerce.number().min(0).max(100).default(2)),
  /** DNS servers for custom-domain verification (comma list of ip[:port]); empty uses the system's. */
  DNS_SERVERS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
});

export type Config = Omit<z.infer<typeof envSchema>, "SESSION_SECRET" | "ENCRYPTION_KEY"> & {
  APP_URL: string | undefined;
  SESSION_SECRETS: string[];
  ENCRYPTION_KEY: string;
  DATABASE_PATH: string;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

function loadSecrets(dataDir: string) {
  const file = path.join(dataDir, "secrets.json");
  let stored: { sessionSecret?: string; encryptionKey?: string } = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, "utf8"));
  let changed = false;
  if (!stored.sessionSecret) {
    stored.sessionSecret = crypto.randomBytes(32).toString("hex");
    changed = true;
  }
  if (!stored.encryptionKey) {
    stored.encryptionKey = crypto.randomBytes(32).toString("hex");
    changed = true;
  }
  if (changed) fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  return stored as Required<typeof stored>;
}

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const { SESSION_SECRET, ENCRYPTION_KEY, ...rest } = result.data;
  const dataDir = path.resolve(rest.DATA_DIR);
  ensurePrivateDir(dataDir);
  const needsGenerated = !SESSION_SECRET || !ENCRYPTION_KEY;
  const generated = needsGenerated ? loadSecrets(dataDir) : undefined;
  return {
    ...rest,
    DATA_DIR: dataDir,
    APP_URL: rest.APP_URL?.replace(/\/$/, ""),
    SESSION_SECRETS: SESSION_SECRET ?? [generated!.sessionSecret],
    ENCRYPTION_KEY: ENCRYPTION_KEY ?? generated!.encryptionKey,
    DATABASE_PATH: path.join(dataDir, "app.db"),
  };
}

let cached: Config | undefined;

/** Forgets the parsed configuration so the next call reads the environment again (tests only). */
export function resetConfigForTests() {
  cached = undefined;
}

/** The configuration of this process, parsed on first use. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * The app's public base URL (no trailing slash): APP_URL, else
 * http://localhost:PORT. Every link in mail, every OAuth redirect URI and
 * every share link is built from it, never from a request's Host header, so
 * a forged Host cannot send a reset link to someone else's server.
 */
export function appUrl(): string {
  const { APP_URL, PORT } = config();
  return (APP_URL ?? `http://localhost:${PORT}`).replace(/\/+$/, "");
}
