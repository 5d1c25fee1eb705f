import type { ProviderSettings } from "../settings.server";

/** Tokens from a token endpoint (authorization code or refresh grant). */
export interface TokenSet {
  accessToken: string;
  /** Null: the service did not send one (keep the stored one on refresh). */
  refreshToken: string | null;
  /** Seconds; null when the token does not expire. */
  expiresIn: number | null;
  scopes: string | null;
}

/** Who and where the connection is, read once at connect time. */
export interface ConnectedAccount {
  workspaceId: string | null;
  workspaceName: string;
  accountEmail: string | null;
}

/** The OAuth side of one service. */
export interface OAuthClient {
  service: string;
  /** Sends a PKCE S256 challenge and the verifier on exchange. */
  usesPkce: boolean;
  authorizationUrl(s: ProviderSettings, p: { redirectUri: string; state: string; codeChallenge: string | null }): string;
  exchangeCode(s: ProviderSettings, p: { code: string; redirectUri: string; codeVerifier: string | null }): Promise<TokenSet & ConnectedAccount>;
  refresh(s: ProviderSettings, refreshToken: string): Promise<TokenSet>;
  /** Best effort; absent when the service has no revocation endpoint. */
  revoke?(s: ProviderSettings, tokens: { accessToken: string | null; refreshToken: string | null }): Promise<void>;
}

/** Runs one API request with the connection's access token, refreshing it once on a 401. */
export type Authorized = <T>(request: (accessToken: string) => Promise<T>) => Promise<T>;

export const basicAuth = (s: ProviderSettings) => `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString("base64")}`;

/** Reads a numeric `expires_in` (seconds) from a token response. */
export const expiresIn = (value: unknown) =>
  typeof value === "number" && value > 0 ? value : typeof value === "string" && Number(value) > 0 ? Number(value) : null;
