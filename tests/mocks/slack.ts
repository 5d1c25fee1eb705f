import { http, HttpResponse } from "msw";

/**
 * The Slack Web API as an msw stand-in at SLACK_API_URL, with Slack's real
 * shapes: every answer is HTTP 200 with {ok:true,...} or {ok:false,error}
 * except rate limits (HTTP 429 with Retry-After). Methods take form bodies
 * with the bot token as a Bearer header; oauth.v2.access checks the client
 * id and secret, the code and the redirect_uri it was issued for.
 */

export const SLACK_API = "https://slack.test/api/";
export const SLACK_CLIENT = { id: "slack-client-id", secret: "slack-client-secret" };

export interface Posted {
  token: string;
  channel: string;
  text: string;
  blocks: any[];
}

export function createSlackMock() {
  const state = {
    /** Codes issued at "authorize": code → redirect_uri. */
    codes: new Map<string, string>(),
    tokens: new Map<string, { teamId: string; teamName: string }>(),
    revoked: new Set<string>(),
    channels: Array.from({ length: 5 }, (_, i) => ({
      id: `C0${i}CHAN`,
      name: ["general", "product", "reviews", "design", "random"][i]!,
      is_private: false,
      is_member: true,
    })),
    /** Channel ids the bot was removed from. */
    notIn: new Set<string>(),
    posted: [] as Posted[],
    calls: [] as string[],
    /** The next N chat.postMessage calls answer 429 with this Retry-After. */
    rateLimit: { times: 0, retryAfter: 7 },
    /** The next chat.postMessage answers {ok:false,error}. */
    failNext: null as string | null,
    teamCounter: 0,
  };
  const ok = (body: Record<string, unknown> = {}) => HttpResponse.json({ ok: true, ...body });
  const fail = (error: string) => HttpResponse.json({ ok: false, error });
  const form = async (request: Request) => new URLSearchParams(await request.text());
  const auth = (request: Request) => {
    const token = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
    if (!token) return { error: "not_authed" as const };
    if (state.revoked.has(token)) return { error: "token_revoked" as const };
    if (!state.tokens.has(token)) return { error: "invalid_auth" as const };
    return { token };
  };
  const method = (name: string) => `${SLACK_API}${name}`;

  const handlers = [
    http.post(method("oauth.v2.access"), async ({ request }) => {
      state.calls.push("oauth.v2.access");
      const b = await form(request);
      if (b.get("client_id") !== SLACK_CLIENT.id || b.get("client_secret") !== SLACK_CLIENT.secret) return fail("invalid_client_id");
      const code = b.get("code") ?? "";
      const redirect = state.codes.get(code);
      if (!redirect) return fail("invalid_code");
      state.codes.delete(code);
      if (b.get("redirect_uri") !== redirect) return fail("bad_redirect_uri");
      const n = ++state.teamCounter;
      const token = `xoxb-test-${n}-${Math.random().toString(36).slice(2)}`;
      state.tokens.set(token, { teamId: `T0${n}`, teamName: `Acme Workspace ${n}` });
      return ok({
        access_token: token,
        token_type: "bot",
        scope: "chat:write,channels:read,groups:read",
        bot_user_id: "U0BOT",
        app_id: "A0APP",
        team: { id: `T0${n}`, name: `Acme Workspace ${n}` },
        enterprise: null,
        is_enterprise_install: false,
      });
    }),
    http.post(method("auth.revoke"), async ({ request }) => {
      state.calls.push("auth.revoke");
      const a = auth(request);
      if (!a.token) return fail(a.error!);
      state.revoked.add(a.token);
      return ok({ revoked: true });
    }),
    http.post(method("conversations.list"), async ({ request }) => {
      state.calls.push("conversations.list");
      const a = auth(request);
      if (!a.token) return fail(a.error!);
      const b = await form(request);
      const start = Number(b.get("cursor") || 0);
      // Two per page, so paging is exercised.
      const page = state.channels.slice(start, start + 2);
      const next = start + 2 < state.channels.length ? String(start + 2) : "";
      return ok({ channels: page, response_metadata: { next_cursor: next } });
    }),
    http.post(method("chat.postMessage"), async ({ request }) => {
      state.calls.push("chat.postMessage");
      const a = auth(request);
      if (!a.token) return fail(a.error!);
      const b = await form(request);
      if (state.rateLimit.times > 0) {
        state.rateLimit.times--;
        return HttpResponse.json({ ok: false, error: "ratelimited" }, { status: 429, headers: { "Retry-After": String(state.rateLimit.retryAfter) } });
      }
      if (state.failNext) {
        const error = state.failNext;
        state.failNext = null;
        return fail(error);
      }
      const channel = b.get("channel") ?? "";
      if (!state.channels.some((c) => c.id === channel)) return fail("channel_not_found");
      if (state.notIn.has(channel)) return fail("not_in_channel");
      const text = b.get("text") ?? "";
      if (!text && !b.get("blocks")) return fail("no_text");
      state.posted.push({ token: a.token, channel, text, blocks: JSON.parse(b.get("blocks") ?? "[]") });
      return ok({ channel, ts: `${Date.now() / 1000}`, message: { text } });
    }),
  ];

  /** What Slack does when the user approves: a code for the redirect_uri, returned with the state. */
  const authorize = (authorizeUrl: string) => {
    const url = new URL(authorizeUrl);
    const code = `code-${Math.random().toString(36).slice(2)}`;
    state.codes.set(code, url.searchParams.get("redirect_uri") ?? "");
    return { code, state: url.searchParams.get("state") ?? "" };
  };

  return { state, handlers, authorize };
}
