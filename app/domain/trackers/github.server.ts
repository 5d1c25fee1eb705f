import { Octokit } from "@octokit/rest";
import { verify } from "@octokit/webhooks-methods";
import { config } from "~/config.server";
import { logger } from "~/utils/log.server";
import { type ExternalIssue, type IssueDraft, type TrackerAdapter, type TrackerCredentials, TrackerError, type TrackerIssueState } from "./adapter";

/**
 * GitHub Issues through @octokit/rest: a personal access token (classic or
 * fine-grained) saved by an admin; GITHUB_API_URL points it at GitHub
 * Enterprise (https://HOST/api/v3) or at a stand-in in tests.
 */

const quiet = () => {};
const warn = (message: string) => logger.warn(`[trackers] github: ${message}`);

const client = (c: TrackerCredentials) =>
  new Octokit({
    auth: c.token,
    baseUrl: config().GITHUB_API_URL.replace(/\/+$/, ""),
    userAgent: "prd-studio-trackers",
    request: { signal: AbortSignal.timeout(30_000) },
    log: { debug: quiet, info: quiet, warn, error: warn },
  });

const IN_PROGRESS = /^(in[ -_]?progress|doing|wip)$/i;

type GhIssue = {
  id: number;
  number: number;
  html_url: string;
  title: string;
  state: string;
  labels?: (string | { name?: string | null })[];
  updated_at?: string;
};

export function stateOf(issue: Pick<GhIssue, "state" | "labels">): TrackerIssueState {
  if (issue.state === "closed") return "done";
  const names = (issue.labels ?? []).map((l) => (typeof l === "string" ? l : (l.name ?? "")));
  return names.some((n) => IN_PROGRESS.test(n.trim())) ? "in_progress" : "open";
}

const present = (target: string, i: GhIssue): ExternalIssue => ({
  externalId: String(i.id),
  externalNumber: i.number,
  externalKey: `${target}#${i.number}`,
  url: i.html_url,
  title: i.title,
  state: stateOf(i),
});

function split(target: string) {
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(target);
  if (!m) throw new TrackerError("invalid", `“${target}” is not a repository: write it as owner/name`);
  return { owner: m[1]!, repo: m[2]! };
}

const header = (headers: Record<string, unknown> | undefined, name: string) => {
  const v = headers?.[name];
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
};

/** Octokit's RequestError (status, response headers and body) as a TrackerError in plain words. */
export function githubError(error: unknown, what: string): TrackerError {
  if (error instanceof TrackerError) return error;
  const e = error as { status?: number; response?: { headers?: Record<string, unknown>; data?: { message?: string } }; message?: string };
  const status = typeof e?.status === "number" ? e.status : 0;
  const headers = e?.response?.headers;
  const message = e?.response?.data?.message ?? e?.message ?? "no details";
  const retryAfter = header(headers, "retry-after");
  const remaining = header(headers, "x-ratelimit-remaining");
  const reset = header(headers, "x-ratelimit-reset");
  if (status === 429 || (status === 403 && (retryAfter !== null || remaining === "0" || /rate limit/i.test(message)))) {
    let seconds = 60;
    if (retryAfter !== null && Number.isFinite(Number(retryAfter))) seconds = Number(retryAfter);
    else if (remaining === "0" && reset !== null && Number.isFinite(Number(reset))) seconds = Number(reset) - Math.floor(Date.now() / 1000);
    return new TrackerError("rate_limited", `GitHub is rate limiting (${message})`, Math.max(1, Math.ceil(seconds)));
  }
  if (status === 401) return new TrackerError("auth", `GitHub refused the token: ${message}`);
  if (status === 403) return new TrackerError("auth", `GitHub refused to ${what}: ${message} (the token needs the Issues write permission on the repository)`);
  if (status === 404) return new TrackerError("not_found", `GitHub could not ${what}: not found, or the token cannot see it`);
  if (status === 410) return new TrackerError("not_found", `GitHub could not ${what}: issues are turned off in this repository`);
  if (status === 422) return new TrackerError("invalid", `GitHub did not accept the issue: ${message}`);
  if (status >= 500) return new TrackerError("unavailable", `GitHub answered ${status} and could not ${what}; try again in a moment`);
  return new TrackerError("unavailable", `GitHub could not be reached to ${what}; try again in a moment`);
}

async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw githubError(error, what);
  }
}

export const githubAdapter: TrackerAdapter = {
  service: "github",

  async validate(c) {
    const { data } = await call("check the token", () => client(c).rest.users.getAuthenticated());
    return { accountLabel: data.login };
  },

  async listTargets(c) {
    const { data } = await call("list repositories", () =>
      client(c).rest.repos.listForAuthenticatedUser({ per_page: 100, sort: "pushed", affiliation: "owner,collaborator,organization_member" }),
    );
    return data
      .filter((r) => r.permissions?.push !== false && r.has_issues !== false && !r.archived)
      .map((r) => ({ id: r.full_name, name: r.full_name, url: r.html_url }));
  },

  async createIssue(c, target, draft: IssueDraft) {
    const { owner, repo } = split(target);
    const { data } = await call(`create an issue in ${target}`, () =>
      client(c).rest.issues.create({ owner, repo, title: draft.title, body: draft.body, labels: draft.labels }),
    );
    return present(target, data as GhIssue);
  },

  async updateIssue(c, target, issue, draft) {
    const { owner, repo } = split(target);
    if (!issue.externalNumber) throw new TrackerError("invalid", `The linked issue ${issue.externalKey} has no number`);
    const number = issue.externalNumber;
    // Labels are added (the story's) but those set by people in GitHub, such as "in progress", are kept.
    const current = await call(`read issue ${issue.externalKey}`, () => client(c).rest.issues.get({ owner, repo, issue_number: number }));
    const kept = (current.data.labels ?? []).map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter(Boolean);
    const labels = [...new Set([...kept, ...draft.labels])];
    const { data } = await call(`update issue ${issue.externalKey}`, () =>
      client(c).rest.issues.update({ owner, repo, issue_number: number, title: draft.title, body: draft.body, labels }),
    );
    return present(target, data as GhIssue);
  },

  async getIssue(c, target, issue) {
    const { owner, repo } = split(target);
    if (!issue.externalNumber) throw new TrackerError("invalid", `The linked issue ${issue.externalKey} has no number`);
    const number = issue.externalNumber;
    try {
      const { data } = await client(c).rest.issues.get({ owner, repo, issue_number: number });
      return present(target, data as GhIssue);
    } catch (error) {
      // 410 Gone "This issue was deleted" (or "Issues are disabled"); 404 when the token cannot see it or the repository is gone.
      const e = error as { status?: number; response?: { data?: { message?: string } } };
      if (e?.status === 410 && /deleted/i.test(e.response?.data?.message ?? ""))
        throw new TrackerError("not_found", `GitHub no longer has issue ${issue.externalKey}: it was deleted`);
      throw githubError(error, `read issue ${issue.externalKey}`);
    }
  },

  async verifyWebhook(rawBody, headers, secret) {
    const signature = headers.get("x-hub-signature-256");
    if (!signature || !rawBody || !secret) return false;
    try {
      return await verify(secret, rawBody, signature);
    } catch {
      return false;
    }
  },

  parseWebhook(rawBody, headers) {
    if (headers.get("x-github-event") !== "issues") return null;
    let payload: { action?: string; issue?: GhIssue };
    try {
      payload = JSON.parse(rawBody);
    } catch {
      return null;
    }
    const issue = payload.issue;
    if (!issue || typeof issue.id !== "number") return null;
    if (!["opened", "edited", "closed", "reopened", "labeled", "unlabeled"].includes(payload.action ?? "")) return null;
    // Every issues event touches the issue: its updated_at is when the change happened (a redelivery carries the original).
    const sentAt = typeof issue.updated_at === "string" ? Date.parse(issue.updated_at) : Number.NaN;
    return {
      externalId: String(issue.id),
      state: stateOf(issue),
      title: typeof issue.title === "string" ? issue.title : undefined,
      ...(Number.isFinite(sentAt) ? { sentAt } : {}),
    };
  },

  deliveryId: (headers) => headers.get("x-github-delivery") || null,
};
