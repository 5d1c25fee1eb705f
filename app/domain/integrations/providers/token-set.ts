import { AppError } from "../../errors";
import { expiresIn, type TokenSet } from "./types";

/**
 * A token endpoint's JSON answer (RFC 6749 §5.1) as a TokenSet, for every
 * OAuth provider: an answer without `access_token` is the provider's fault
 * (502 PROVIDER_ERROR naming it). `scope` is kept only where the provider
 * reports granted scopes (Notion does not).
 */
export function tokenSet(service: string, body: any, options: { scopes?: boolean } = {}): TokenSet {
  if (typeof body?.access_token !== "string") throw new AppError("PROVIDER_ERROR", 502, `${service}'s token response had no access_token`);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : null,
    expiresIn: expiresIn(body.expires_in),
    scopes: options.scopes !== false && typeof body.scope === "string" ? body.scope : null,
  };
}
