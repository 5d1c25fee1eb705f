import { randomBytes } from "node:crypto";
import { HttpResponse } from "msw";

/**
 * Shared pieces of the integration stand-ins (notes, wiki, docs): the
 * authorization server's memory of codes and tokens (single-use codes bound
 * to a redirect URI, expiring access tokens, rotating refresh tokens), a log
 * of the requests, and a queue of injected failures such as a 429 with
 * Retry-After or a 500.
 */

export const rid = (prefix: string, bytes = 12) => `${prefix}${randomBytes(bytes).toString("hex")}`;

export interface LoggedRequest {
  method: string;
  path: string;
  search: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Failure {
  method: string;
  /** Matches the path exactly, or a RegExp over it. */
  path: string | RegExp;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Grant {
  accessToken: string;
  refreshToken: string | null;
  accessExpiresAt: number | null;
}

export function createOAuthKit(options: { accessTtlSeconds: number | null; rotateRefresh: boolean }) {
  const requests: LoggedRequest[] = [];
  const failures: Failure[] = [];
  const codes = new Map<string, { redirectUri: string; challenge: string | null; used: boolean }>();
  const access = new Map<string, { expiresAt: number | null; revoked: boolean }>();
  const refresh = new Map<string, { valid: boolean }>();
  const counters = { exchanged: 0, refreshed: 0, revoked: 0 };

  function issue(): Grant {
    const accessToken = rid("at_");
    const refreshToken = rid("rt_");
    const expiresAt = options.accessTtlSeconds ? Date.now() + options.accessTtlSeconds * 1000 : null;
    access.set(accessToken, { expiresAt, revoked: false });
    refresh.set(refreshToken, { valid: true });
    return { accessToken, refreshToken, accessExpiresAt: expiresAt };
  }

  return {
    requests,
    failures,
    counters,
    /** A code the service would put on the redirect after the user approves. */
    newCode(redirectUri: string, challenge: string | null = null) {
      const code = rid("code_");
      codes.set(code, { redirectUri, challenge, used: false });
      return code;
    },
    /** Spends a code: null when unknown, reused or for another redirect URI. */
    redeemCode(code: string, redirectUri: string | undefined) {
      const c = codes.get(code);
      if (!c || c.used || (redirectUri !== undefined && c.redirectUri !== redirectUri)) return null;
      c.used = true;
      counters.exchanged++;
      return { grant: issue(), challenge: c.challenge };
    },
    /** Exchanges a refresh token; with rotation the old one stops working. */
    redeemRefresh(token: string): Grant | null {
      const r = refresh.get(token);
      if (!r?.valid) return null;
      counters.refreshed++;
      if (options.rotateRefresh) {
        r.valid = false;
        return issue();
      }
      const g = issue();
      refresh.delete(g.refreshToken!);
      return { ...g, refreshToken: null };
    },
    revoke(token: string) {
      counters.revoked++;
      const a = access.get(token);
      if (a) a.revoked = true;
      const r = refresh.get(token);
      if (r) r.valid = false;
      return !!(a || r);
    },
    /** The bearer token of a request when it is valid, else null. */
    bearer(request: Request) {
      const token = /^Bearer (.+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
      const a = token ? access.get(token) : undefined;
      if (!token || !a || a.revoked || (a.expiresAt !== null && a.expiresAt <= Date.now())) return null;
      return token;
    },
    /** Makes every access token issued so far fail with 401 (as after expiry or revocation upstream). */
    expireAccessTokens() {
      for (const a of access.values()) a.expiresAt = Date.now() - 1;
    },
    invalidateRefreshTokens() {
      for (const r of refresh.values()) r.valid = false;
    },
    async log(request: Request): Promise<LoggedRequest> {
      const url = new URL(request.url);
      const type = request.headers.get("Content-Type") ?? "";
      const raw = await request.clone().text();
      let body: unknown = raw;
      if (type.includes("json") && raw) body = JSON.parse(raw);
      else if (type.includes("x-www-form-urlencoded")) body = Object.fromEntries(new URLSearchParams(raw));
      const entry = { method: request.method, path: url.pathname, search: url.search, headers: Object.fromEntries(request.headers), body };
      requests.push(entry);
      return entry;
    },
    /** The next injected failure for this request, removed from the queue. */
    takeFailure(method: string, path: string) {
      const i = failures.findIndex((f) => f.method === method && (typeof f.path === "string" ? f.path === path : f.path.test(path)));
      if (i < 0) return null;
      const [f] = failures.splice(i, 1);
      return HttpResponse.json(f!.body as any, { status: f!.status, headers: f!.headers });
    },
  };
}
export type OAuthKit = ReturnType<typeof createOAuthKit>;

export const basicCredentials = (request: Request) => {
  const m = /^Basic (.+)$/i.exec(request.headers.get("Authorization") ?? "");
  if (!m) return null;
  const [id, ...rest] = Buffer.from(m[1]!, "base64").toString("utf8").split(":");
  return { id: id!, secret: rest.join(":") };
};
