import crypto from "node:crypto";
import { HttpException, Version3Client } from "jira.js";
import { config } from "~/config.server";
import { type ExternalIssue, type TrackerAdapter, type TrackerCredentials, TrackerError, type TrackerIssueState } from "./adapter";
import { markdownToAdf } from "./jira-adf";

/**
 * Jira Cloud through jira.js's Version3Client (REST v3): basic auth with the
 * account's e-mail and an API token, at the site URL the admin gave. The site
 * must be https://*.atlassian.net or a host in JIRA_ALLOWED_HOSTS (checked
 * before any request, so the server cannot be pointed at internal addresses).
 * Connected with OAuth (3LO), requests go with the access token to
 * JIRA_API_URL/ex/jira/{cloudId}: the host comes from configuration, never
 * from Atlassian's answer (whose site URL is used for links only).
 * Targets are projects (their key); issues are keyed by their key (ABC-7),
 * created as Stories where the project has that type (issueTypeFor).
 */

/** The site's origin, or why it is refused (in words for the "Site URL" field). */
export function jiraSite(raw: string | undefined): { origin: string } | { error: string } {
  let url: URL;
  try {
    url = new URL((raw ?? "").trim());
  } catch {
    return { error: "Enter your Jira site URL, like https://your-team.atlassian.net" };
  }
  const allowed = (config().JIRA_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const host = url.host.toLowerCase();
  const listed = allowed.includes(host) || allowed.includes(url.hostname.toLowerCase());
  if (url.username || url.password || !["https:", "http:"].includes(url.protocol))
    return { error: "Enter your Jira site URL, like https://your-team.atlassian.net" };
  if (listed) return { origin: url.origin };
  if (url.protocol === "https:" && url.hostname.toLowerCase().endsWith(".atlassian.net") && !url.port) return { origin: url.origin };
  return { error: "Only Jira Cloud sites (https://….atlassian.net) can be connected; ask your server's operator to allow another host (JIRA_ALLOWED_HOSTS)" };
}

/** Jira's status categories: new → open, indeterminate → in progress, done → done. */
export function jiraState(key: string | null | undefined): TrackerIssueState {
  if (key === "done") return "done";
  if (key === "indeterminate") return "in_progress";
  return "open";
}

type JiraIssue = { id: string; key: string; fields?: { summary?: string; status?: { statusCategory?: { key?: string } } } };

const present = (site: string, i: JiraIssue): ExternalIssue => ({
  externalId: i.id,
  externalNumber: Number(/-(\d+)$/.exec(i.key)?.[1]) || null,
  externalKey: i.key,
  url: `${site}/browse/${i.key}`,
  title: i.fields?.summary ?? "",
  state: jiraState(i.fields?.status?.statusCategory?.key),
});

/** An HttpException (status, Jira's errorMessages/errors, Retry-After) as a TrackerError in plain words. */
export function jiraError(error: unknown, what: string): TrackerError {
  if (error instanceof TrackerError) return error;
  if (!(error instanceof HttpException) || !error.status) return new TrackerError("unavailable", `Jira could not be reached to ${what}; try again in a moment`);
  const response = (typeof error.response === "object" ? error.response : {}) as { data?: { errorMessages?: string[]; errors?: Record<string, string> } };
  const data = response.data && typeof response.data === "object" ? response.data : {};
  const reasons = [...(data.errorMessages ?? []), ...Object.entries(data.errors ?? {}).map(([k, v]) => `${k}: ${v}`)];
  const message = reasons.join("; ") || `HTTP ${error.status}`;
  const status = error.status;
  if (status === 401 || status === 403) return new TrackerError("auth", `Jira refused the API token: ${message}`);
  if (status === 404) return new TrackerError("not_found", `Jira could not find what was asked to ${what}: ${message}`);
  if (status === 429) {
    const headers = (error.cause as { response?: { headers?: Record<string, unknown> } } | undefined)?.response?.headers ?? {};
    const retryAfter = Number(headers["retry-after"]);
    return new TrackerError("rate_limited", `Jira is rate limiting (${message})`, Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : 60);
  }
  if (status >= 500) return new TrackerError("unavailable", `Jira answered ${status} and could not ${what}; try again in a moment`);
  return new TrackerError("invalid", `Jira did not accept the request to ${what}: ${message}`);
}

const request = { timeout: 30_000, maxRedirects: 0 };

function client(c: TrackerCredentials) {
  if (c.authKind === "oauth") {
    const cloudId = c.settings.cloudId ?? "";
    if (!/^[\w-]{1,100}$/.test(cloudId)) throw new TrackerError("invalid", "This Jira connection has no site: connect Jira again");
    const host = `${config().JIRA_API_URL.replace(/\/+$/, "")}/ex/jira/${cloudId}`;
    const jira = new Version3Client({ host, authentication: { oauth2: { accessToken: c.token } }, baseRequestConfig: request });
    return { jira, site: c.settings.siteUrl ?? "" };
  }
  const site = jiraSite(c.settings.siteUrl);
  if ("error" in site) throw new TrackerError("invalid", site.error);
  const email = c.settings.email ?? "";
  const jira = new Version3Client({
    host: site.origin,
    authentication: { basic: { email, apiToken: c.token } },
    baseRequestConfig: request,
  });
  return { jira, site: site.origin };
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw jiraError(error, what);
  }
}

/** The issue types of the projects written to, per send: the credentials object lives for one send (sync.server.ts). */
const typesBySend = new WeakMap<TrackerCredentials, Map<string, Promise<string>>>();

type IssueType = { id?: string; name?: string; untranslatedName?: string; subtask?: boolean };

/**
 * The id of the issue type a story is created as in `project`: Story when the
 * project has it, else Task, else its first type that is not a subtask
 * (GET /rest/api/3/issue/createmeta/{project}/issuetypes, the types the
 * account may create there). Looked up once per project and send.
 */
export function issueTypeFor(c: TrackerCredentials, jira: Version3Client, project: string): Promise<string> {
  let cached = typesBySend.get(c);
  if (!cached) typesBySend.set(c, (cached = new Map()));
  const known = cached.get(project);
  if (known) return known;
  const lookup = (async () => {
    const page = await call(`read the issue types of project ${project}`, () =>
      jira.issues.getCreateIssueMetaIssueTypes({ projectIdOrKey: project, maxResults: 200 }),
    );
    const types = ((page.issueTypes ?? page.createMetaIssueType ?? []) as IssueType[]).filter((t) => t.id && !t.subtask);
    const named = (name: string) => types.find((t) => (t.untranslatedName ?? t.name ?? "").toLowerCase() === name);
    const chosen = named("story") ?? named("task") ?? types[0];
    if (!chosen?.id) throw new TrackerError("invalid", `Jira project ${project} has no issue type a story can be created as`);
    return chosen.id;
  })();
  cached.set(project, lookup);
  lookup.catch(() => cached.delete(project));
  return lookup;
}

const PROJECT_KEY = /^[A-Za-z0-9_]{1,255}$/;

const fieldsOf = (draft: { title: string; body: string; labels: string[] }) => ({
  summary: draft.title.slice(0, 250),
  description: markdownToAdf(draft.body),
  labels: draft.labels.map((l) => l.trim().replace(/\s+/g, "-")).filter(Boolean),
});

async function readBack(c: TrackerCredentials, key: string): Promise<ExternalIssue> {
  const { jira, site } = client(c);
  const issue = await call(`read issue ${key}`, () => jira.issues.getIssue({ issueIdOrKey: key, fields: ["summary", "status"] }));
  return present(site, issue as JiraIssue);
}

export const jiraAdapter: TrackerAdapter = {
  service: "jira",

  prepareSettings(settings) {
    const errors: { path: string; message: string }[] = [];
    const site = jiraSite(settings.siteUrl);
    if ("error" in site) errors.push({ path: "settings.siteUrl", message: site.error });
    const email = (settings.email ?? "").trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      errors.push({ path: "settings.email", message: "Enter the e-mail address of the Atlassian account the API token belongs to" });
    return { settings: { siteUrl: "origin" in site ? site.origin : "", email }, errors };
  },

  async validate(c) {
    const { jira } = client(c);
    const me = await call("check the API token", () => jira.myself.getCurrentUser());
    const name = me.displayName ?? me.accountId ?? "Jira user";
    return { accountLabel: me.emailAddress ? `${name} (${me.emailAddress})` : name };
  },

  async listTargets(c) {
    const { jira, site } = client(c);
    const targets: { id: string; name: string; url: string | null }[] = [];
    for (let startAt = 0; startAt < 5000; ) {
      const page = await call("list projects", () => jira.projects.searchProjects({ startAt, maxResults: 50 }));
      const values = page.values ?? [];
      for (const p of values) if (p.key) targets.push({ id: p.key, name: `${p.name ?? p.key} (${p.key})`, url: `${site}/browse/${p.key}` });
      if (page.isLast !== false || values.length === 0) break;
      startAt += values.length;
    }
    return targets;
  },

  async createIssue(c, target, draft) {
    if (!PROJECT_KEY.test(target)) throw new TrackerError("invalid", `“${target}” is not a Jira project key (like EXP)`);
    const { jira } = client(c);
    const issuetype = { id: await issueTypeFor(c, jira, target) };
    const fields = { project: { key: target }, issuetype, ...fieldsOf(draft) };
    const created = await call("create an issue", () => jira.issues.createIssue({ fields: fields as never }));
    return readBack(c, created.key);
  },

  async updateIssue(c, _target, issue, draft) {
    const { jira } = client(c);
    await call(`update issue ${issue.externalKey}`, () => jira.issues.editIssue({ issueIdOrKey: issue.externalKey, fields: fieldsOf(draft) as never }));
    return readBack(c, issue.externalKey);
  },

  async getIssue(c, _target, issue) {
    // By key (ABC-7): Jira answers 404 for a deleted issue, or one the account can no longer see.
    return readBack(c, issue.externalKey);
  },

  async verifyWebhook(rawBody, headers, secret) {
    const signature = /^sha256=([0-9a-f]{64})$/i.exec(headers.get("x-hub-signature") ?? "")?.[1];
    if (!signature || !rawBody || !secret) return false;
    const expected = crypto.createHmac("sha256", secret).update(rawBody).digest();
    return crypto.timingSafeEqual(expected, Buffer.from(signature, "hex"));
  },

  parseWebhook(rawBody) {
    let payload: { webhookEvent?: string; timestamp?: unknown; issue?: JiraIssue };
    try {
      payload = JSON.parse(rawBody);
    } catch {
      return null;
    }
    if (!["jira:issue_created", "jira:issue_updated", "jira:issue_deleted"].includes(payload.webhookEvent ?? "")) return null;
    const issue = payload.issue;
    const key = issue?.fields?.status?.statusCategory?.key;
    if (!issue || typeof issue.id !== "string" || !key) return null;
    const title = issue.fields?.summary;
    const sentAt = Number(payload.timestamp);
    return {
      externalId: issue.id,
      state: jiraState(key),
      title: typeof title === "string" ? title : undefined,
      ...(Number.isFinite(sentAt) && sentAt > 0 ? { sentAt } : {}),
    };
  },

  // Unique per delivery within the site and unchanged across Jira's retries.
  deliveryId: (headers) => headers.get("x-atlassian-webhook-identifier") || null,
};
