import crypto from "node:crypto";
import { LinearClient, LinearError, LinearErrorType } from "@linear/sdk";
import { config } from "~/config.server";
import { type ExternalIssue, type TrackerAdapter, type TrackerCredentials, TrackerError, type TrackerIssueState } from "./adapter";

/**
 * Linear through @linear/sdk's LinearClient: a personal API key saved by an
 * admin, or an OAuth access token (oauth.server.ts); LINEAR_API_URL points it at a stand-in in tests. The SDK's
 * GraphQL client sends our own small queries (only the fields we read).
 * Targets are teams (their id); issues are keyed by their identifier (ENG-12).
 */

const ISSUE_FIELDS = "id number identifier url title state { type }";
const Q = {
  viewer: "query Viewer { viewer { id name email } }",
  teams: "query Teams { teams(first: 100) { nodes { id key name } } }",
  labels: "query TeamLabels($teamId: String!) { team(id: $teamId) { labels(first: 250) { nodes { id name } } } }",
  create: `mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { ${ISSUE_FIELDS} } } }`,
  issue: `query Issue($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} } }`,
  update: `mutation IssueUpdate($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { ${ISSUE_FIELDS} } } }`,
};

type LinearIssue = { id: string; number: number; identifier: string; url: string; title: string; state?: { type?: string } | null };

/** Linear's workflow state types: backlog, unstarted, triage → open; started → in progress; completed, canceled (and duplicate) → done. */
export function linearState(type: string | null | undefined): TrackerIssueState {
  if (type === "started") return "in_progress";
  if (type === "completed" || type === "canceled" || type === "duplicate") return "done";
  return "open";
}

const present = (i: LinearIssue): ExternalIssue => ({
  externalId: i.id,
  externalNumber: i.number,
  externalKey: i.identifier,
  url: i.url,
  title: i.title,
  state: linearState(i.state?.type),
});

/** X-RateLimit-Requests-Reset is a UTC epoch in milliseconds (seconds accepted too). */
function secondsUntil(reset: string | null | undefined): number | null {
  const at = Number(reset);
  if (!reset || !Number.isFinite(at)) return null;
  const ms = at > 1e12 ? at : at * 1000;
  return Math.ceil((ms - Date.now()) / 1000);
}

/** A LinearError (GraphQL errors, HTTP status, headers) as a TrackerError in plain words. */
export function linearError(error: unknown, what: string): TrackerError {
  if (error instanceof TrackerError) return error;
  if (!(error instanceof LinearError)) return new TrackerError("unavailable", `Linear could not be reached to ${what}; try again in a moment`);
  const raw = error.raw as { response?: { headers?: Headers; errors?: { extensions?: { code?: string } }[] } } | undefined;
  const headers = raw?.response?.headers;
  const codes = (raw?.response?.errors ?? []).map((e) => e.extensions?.code);
  const message = error.errors?.[0]?.message ?? error.message ?? "no details";
  if (error.type === LinearErrorType.Ratelimited || error.status === 429 || codes.includes("RATELIMITED")) {
    const retryAfter = Number(headers?.get("retry-after"));
    const seconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : (secondsUntil(headers?.get("x-ratelimit-requests-reset")) ?? 60);
    return new TrackerError("rate_limited", `Linear is rate limiting (${message})`, Math.max(1, Math.ceil(seconds)));
  }
  if (error.type === LinearErrorType.AuthenticationError || error.status === 401) return new TrackerError("auth", `Linear refused the API key: ${message}`);
  if (error.type === LinearErrorType.Forbidden) return new TrackerError("auth", `Linear refused to ${what}: ${message}`);
  if (error.type === LinearErrorType.InvalidInput || error.type === LinearErrorType.UserError)
    return new TrackerError("invalid", `Linear did not accept the issue: ${message}`);
  if (error.type === LinearErrorType.NetworkError || !error.status)
    return new TrackerError("unavailable", `Linear could not be reached to ${what}; try again in a moment`);
  if (error.status >= 500) return new TrackerError("unavailable", `Linear answered ${error.status} and could not ${what}; try again in a moment`);
  return new TrackerError("unavailable", `Linear could not ${what}: ${message}`);
}

async function gql<T>(c: TrackerCredentials, what: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  // An OAuth access token goes as "Bearer …", a personal API key as it is.
  const auth = c.authKind === "oauth" ? { accessToken: c.token } : { apiKey: c.token };
  const client = new LinearClient({ ...auth, apiUrl: config().LINEAR_API_URL, signal: AbortSignal.timeout(30_000) });
  try {
    const res = await client.client.rawRequest<T, Record<string, unknown>>(query, variables);
    if (!res.data) throw new TrackerError("unavailable", `Linear sent no answer to ${what}; try again in a moment`);
    return res.data;
  } catch (error) {
    throw linearError(error, what);
  }
}

/** The team's existing labels whose names match the story's (Linear labels are not created on the fly). */
async function labelIds(c: TrackerCredentials, teamId: string, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const data = await gql<{ team: { labels: { nodes: { id: string; name: string }[] } } | null }>(c, "read the team's labels", Q.labels, { teamId });
  if (!data.team) throw new TrackerError("not_found", "Linear could not find this team, or the API key cannot see it");
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  return data.team.labels.nodes.filter((l) => wanted.has(l.name.toLowerCase())).map((l) => l.id);
}

type Payload = { success: boolean; issue: LinearIssue | null };
function issueOf(p: Payload, what: string): ExternalIssue {
  if (!p.success || !p.issue) throw new TrackerError("invalid", `Linear did not ${what}`);
  return present(p.issue);
}

export const linearAdapter: TrackerAdapter = {
  service: "linear",

  async validate(c) {
    const { viewer } = await gql<{ viewer: { name: string; email: string } }>(c, "check the API key", Q.viewer);
    return { accountLabel: viewer.email ? `${viewer.name} (${viewer.email})` : viewer.name };
  },

  async listTargets(c) {
    const { teams } = await gql<{ teams: { nodes: { id: string; key: string; name: string }[] } }>(c, "list teams", Q.teams);
    return teams.nodes.map((t) => ({ id: t.id, name: `${t.name} (${t.key})`, url: null }));
  },

  async createIssue(c, target, draft) {
    const ids = await labelIds(c, target, draft.labels);
    const input = { teamId: target, title: draft.title, description: draft.body, ...(ids.length ? { labelIds: ids } : {}) };
    const data = await gql<{ issueCreate: Payload }>(c, "create an issue", Q.create, { input });
    return issueOf(data.issueCreate, "create the issue");
  },

  async updateIssue(c, target, issue, draft) {
    // Labels are added (addedLabelIds), so those set by people in Linear are kept.
    const ids = await labelIds(c, target, draft.labels);
    const input = { title: draft.title, description: draft.body, ...(ids.length ? { addedLabelIds: ids } : {}) };
    const data = await gql<{ issueUpdate: Payload }>(c, `update issue ${issue.externalKey}`, Q.update, { id: issue.externalId, input });
    return issueOf(data.issueUpdate, `update issue ${issue.externalKey}`);
  },

  async getIssue(c, _target, issue) {
    try {
      const data = await gql<{ issue: LinearIssue | null }>(c, `read issue ${issue.externalKey}`, Q.issue, { id: issue.externalId });
      if (!data.issue) throw new TrackerError("not_found", `Linear no longer has issue ${issue.externalKey}`);
      return present(data.issue);
    } catch (error) {
      // A deleted issue (or one out of the key's sight) is Linear's "Entity not found" error.
      if (error instanceof TrackerError && error.kind === "invalid" && /not found|could not find/i.test(error.message))
        throw new TrackerError("not_found", `Linear no longer has issue ${issue.externalKey}: it was deleted, or the key cannot see it`);
      throw error;
    }
  },

  async verifyWebhook(rawBody, headers, secret) {
    const signature = headers.get("linear-signature") ?? "";
    if (!/^[0-9a-f]{64}$/i.test(signature) || !rawBody || !secret) return false;
    const expected = crypto.createHmac("sha256", secret).update(rawBody).digest();
    if (!crypto.timingSafeEqual(expected, Buffer.from(signature, "hex"))) return false;
    // A replayed delivery: Linear puts the sending time (ms) in the signed body.
    try {
      const at = Number((JSON.parse(rawBody) as { webhookTimestamp?: unknown }).webhookTimestamp);
      return Number.isFinite(at) && Math.abs(Date.now() - at) <= 60_000;
    } catch {
      return false;
    }
  },

  parseWebhook(rawBody) {
    let payload: { type?: string; action?: string; webhookTimestamp?: unknown; data?: { id?: unknown; title?: unknown; state?: { type?: string } | null } };
    try {
      payload = JSON.parse(rawBody);
    } catch {
      return null;
    }
    if (payload.type !== "Issue" || !["create", "update", "remove"].includes(payload.action ?? "")) return null;
    const data = payload.data;
    if (!data || typeof data.id !== "string" || !data.state?.type) return null;
    const sentAt = Number(payload.webhookTimestamp);
    return {
      externalId: data.id,
      state: linearState(data.state.type),
      title: typeof data.title === "string" ? data.title : undefined,
      ...(Number.isFinite(sentAt) ? { sentAt } : {}),
    };
  },

  // Linear's unique id of each delivery; the signed body's webhookId + webhookTimestamp make its digest unique too.
  deliveryId: (headers) => headers.get("linear-delivery") || null,
};
