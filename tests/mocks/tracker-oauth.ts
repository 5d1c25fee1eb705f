import { http, HttpResponse } from "msw";
import { createOAuthKit, type OAuthKit } from "./oauth-kit";

/**
 * The issue trackers' OAuth authorization servers as msw stand-ins, each with
 * its real token endpoint's shapes (docs/trackers.md, "Connecting with OAuth"):
 *  - GitHub (an OAuth App): POST {base}/login/oauth/access_token, form body;
 *    JSON only when asked with Accept; refusals come with status 200:
 *    `{"error":"bad_verification_code"}`, `incorrect_client_credentials`,
 *    `bad_refresh_token`. Tokens do not expire; no refresh token.
 *  - Linear: POST /oauth/token, form body; access tokens for 24 h with
 *    rotating refresh tokens; 400 `invalid_grant` / 401 `invalid_client`.
 *  - Atlassian (Jira 3LO): POST /oauth/token, JSON body; access tokens for
 *    1 h, refresh tokens rotating on every use; 400 `invalid_grant`;
 *    /oauth/token/accessible-resources lists the granted sites (an empty
 *    list: no site).
 * Codes are single use and bound to the redirect URI they were issued for.
 */

export const TRACKER_OAUTH_CLIENTS = {
  github: { id: "Iv1.gh-client-id", secret: "gh-client-secret-000" },
  linear: { id: "lin-client-id", secret: "lin-client-secret-000" },
  jira: { id: "jira-client-id", secret: "jira-client-secret-000" },
};
export const GITHUB_OAUTH_URL = "https://github.test";
export const LINEAR_AUTH_URL = "https://linear.test/oauth/authorize";
export const LINEAR_TOKEN_URL = "https://api.linear.test/oauth/token";
export const JIRA_AUTH_BASE = "https://auth.atlassian.test";
export const JIRA_API_URL = "https://api.atlassian.test";
export const CLOUD_ID = "1324a887-45db-1bf4-1e99-ef0ff456d421";
export const JIRA_SITE_URL = "https://acme.atlassian.net";

/** The environment that points the app's OAuth clients at these stand-ins. */
export const TRACKER_OAUTH_ENV: Record<string, string> = {
  GITHUB_CLIENT_ID: TRACKER_OAUTH_CLIENTS.github.id,
  GITHUB_CLIENT_SECRET: TRACKER_OAUTH_CLIENTS.github.secret,
  GITHUB_OAUTH_URL,
  LINEAR_CLIENT_ID: TRACKER_OAUTH_CLIENTS.linear.id,
  LINEAR_CLIENT_SECRET: TRACKER_OAUTH_CLIENTS.linear.secret,
  LINEAR_AUTH_URL,
  LINEAR_TOKEN_URL,
  JIRA_CLIENT_ID: TRACKER_OAUTH_CLIENTS.jira.id,
  JIRA_CLIENT_SECRET: TRACKER_OAUTH_CLIENTS.jira.secret,
  JIRA_AUTH_URL: `${JIRA_AUTH_BASE}/authorize`,
  JIRA_TOKEN_URL: `${JIRA_AUTH_BASE}/oauth/token`,
  JIRA_API_URL,
};

type Service = keyof typeof TRACKER_OAUTH_CLIENTS;

const SITES = [
  // A Confluence-only site the account also granted: not a Jira site.
  { id: "9e0c4a1e-0000-4c1d-9a3e-wikionly0001", url: "https://acme-wiki.atlassian.net", name: "acme-wiki", scopes: ["write:confluence-content"] },
  { id: CLOUD_ID, url: JIRA_SITE_URL, name: "acme", scopes: ["read:jira-work", "write:jira-work", "read:jira-user"] },
];

export function createTrackerOAuthMock() {
  const kits: Record<Service, OAuthKit> = {
    github: createOAuthKit({ accessTtlSeconds: null, rotateRefresh: false }),
    linear: createOAuthKit({ accessTtlSeconds: 86_399, rotateRefresh: true }),
    jira: createOAuthKit({ accessTtlSeconds: 3600, rotateRefresh: true }),
  };
  let sites = SITES;

  /** What the service's consent page checks before the user approves: the parameters; returns the code and state it redirects back with. */
  function authorize(service: Service, authorizationUrl: string) {
    const url = new URL(authorizationUrl);
    const q = url.searchParams;
    const expected = { github: `${GITHUB_OAUTH_URL}/login/oauth/authorize`, linear: LINEAR_AUTH_URL, jira: `${JIRA_AUTH_BASE}/authorize` }[service];
    if (`${url.origin}${url.pathname}` !== expected) throw new Error(`unexpected authorize URL ${url.origin}${url.pathname}`);
    if (q.get("client_id") !== TRACKER_OAUTH_CLIENTS[service].id || !q.get("state") || !q.get("redirect_uri")) throw new Error(`bad parameters: ${q}`);
    if (service !== "github" && q.get("response_type") !== "code") throw new Error(`bad response_type: ${q}`);
    if (service === "jira" && (q.get("audience") !== "api.atlassian.com" || !q.get("scope")?.split(" ").includes("offline_access")))
      throw new Error(`bad Atlassian parameters: ${q}`);
    return { code: kits[service].newCode(q.get("redirect_uri")!), state: q.get("state")!, redirectUri: q.get("redirect_uri")! };
  }

  /** Whether `token` is a live access token of that service. */
  const accepts = (service: Service, token: string) =>
    kits[service].bearer(new Request("https://token.check/", { headers: { Authorization: `Bearer ${token}` } })) !== null;

  const client = (service: Service, body: Record<string, string>) =>
    body.client_id === TRACKER_OAUTH_CLIENTS[service].id && body.client_secret === TRACKER_OAUTH_CLIENTS[service].secret;

  /** A grant by code or refresh token, or null when refused. */
  function grant(service: Service, body: Record<string, string>) {
    if (body.grant_type === "refresh_token") return kits[service].redeemRefresh(body.refresh_token ?? "");
    if (service !== "github" && body.grant_type !== "authorization_code") return null;
    return kits[service].redeemCode(body.code ?? "", body.redirect_uri)?.grant ?? null;
  }

  const handlers = [
    http.post(`${GITHUB_OAUTH_URL}/login/oauth/access_token`, async ({ request }) => {
      const body = (await kits.github.log(request)).body as Record<string, string>;
      // GitHub answers its token endpoint's errors with 200, as JSON when asked for it.
      const answer = (value: Record<string, string>) =>
        (request.headers.get("Accept") ?? "").includes("json")
          ? HttpResponse.json(value)
          : new HttpResponse(new URLSearchParams(value).toString(), { headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      if (!client("github", body))
        return answer({ error: "incorrect_client_credentials", error_description: "The client_id and/or client_secret passed are incorrect." });
      const g = grant("github", body);
      if (!g && body.grant_type === "refresh_token")
        return answer({ error: "bad_refresh_token", error_description: "The refresh token passed is incorrect or expired." });
      if (!g)
        return answer({
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
          error_uri: "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code",
        });
      return answer({ access_token: g.accessToken, token_type: "bearer", scope: "repo" });
    }),
    http.post(LINEAR_TOKEN_URL, async ({ request }) => {
      const body = (await kits.linear.log(request)).body as Record<string, string>;
      if (!client("linear", body)) return HttpResponse.json({ error: "invalid_client", error_description: "Client authentication failed" }, { status: 401 });
      const g = grant("linear", body);
      if (!g)
        return HttpResponse.json(
          { error: "invalid_grant", error_description: "The provided authorization grant is invalid, expired, revoked, or was issued to another client" },
          { status: 400 },
        );
      return HttpResponse.json({ access_token: g.accessToken, token_type: "Bearer", expires_in: 86_399, scope: "read write", refresh_token: g.refreshToken });
    }),
    http.post(`${JIRA_AUTH_BASE}/oauth/token`, async ({ request }) => {
      const body = (await kits.jira.log(request)).body as Record<string, string>;
      if (!client("jira", body)) return HttpResponse.json({ error: "access_denied", error_description: "Unauthorized" }, { status: 401 });
      const g = grant("jira", body);
      if (!g)
        return HttpResponse.json(
          {
            error: "invalid_grant",
            error_description: body.grant_type === "refresh_token" ? "Unknown or invalid refresh token." : "Invalid authorization code",
          },
          { status: 400 },
        );
      return HttpResponse.json({
        access_token: g.accessToken,
        expires_in: 3600,
        token_type: "Bearer",
        refresh_token: g.refreshToken,
        scope: "read:jira-work write:jira-work read:jira-user offline_access",
      });
    }),
    http.get(`${JIRA_API_URL}/oauth/token/accessible-resources`, async ({ request }) => {
      await kits.jira.log(request);
      if (!kits.jira.bearer(request)) return HttpResponse.json({ code: 401, message: "Unauthorized" }, { status: 401 });
      return HttpResponse.json(sites.map((s) => ({ ...s, avatarUrl: "https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/rocket.png" })));
    }),
  ];

  return { kits, handlers, authorize, accepts, setSites: (on: boolean) => (sites = on ? SITES : []) };
}
export type TrackerOAuthMock = ReturnType<typeof createTrackerOAuthMock>;
