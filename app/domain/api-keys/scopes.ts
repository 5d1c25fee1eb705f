import type { Actor } from "../actor";
import { forbidden } from "../errors";

/**
 * What a REST API key may do, on top of (never beyond) its creator's role:
 *   read  – GET/HEAD calls;
 *   write – read, plus calls that change projects, PRDs, comments, files...;
 *   admin – everything, including organization administration (keys,
 *           members, invitations, webhooks, billing, allowlist, deleting data
 *           or the organization).
 * They nest: write includes read, admin includes both. Stored and returned as
 * the full list (`["read", "write"]` for a write key). Keys created before
 * scopes existed, and keys created without `scopes`, hold all three.
 * Plain data and no server imports: the settings page uses it too.
 */
export const API_KEY_SCOPES = ["read", "write", "admin"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Today's access: what existing keys and keys created without `scopes` get. */
export const FULL_SCOPES: readonly ApiKeyScope[] = Object.freeze([...API_KEY_SCOPES]);

const RANK: Record<ApiKeyScope, number> = { read: 0, write: 1, admin: 2 };
const isScope = (s: unknown): s is ApiKeyScope => typeof s === "string" && Object.hasOwn(RANK, s);

/** A list with what it implies added, duplicates and unknown names removed, in canonical order. */
export function withImpliedScopes(scopes: readonly unknown[]): ApiKeyScope[] {
  const top = Math.max(-1, ...scopes.filter(isScope).map((s) => RANK[s]));
  return API_KEY_SCOPES.filter((s) => RANK[s] <= top);
}

/** The stored JSON column, read defensively: anything unreadable grants nothing. */
export function parseStoredScopes(raw: string | null | undefined): readonly ApiKeyScope[] {
  try {
    const value: unknown = JSON.parse(raw ?? "[]");
    return Object.freeze(Array.isArray(value) ? withImpliedScopes(value) : []);
  } catch {
    return Object.freeze([]);
  }
}

/**
 * The scopes an actor holds. A browser session holds all of them (its role is
 * the only bound). An API-key actor holds its key's; one built without them
 * (e.g. incoming-webhook actions running as their creator) holds none.
 */
export function actorScopes(actor: Pick<Actor, "via" | "apiKeyScopes">): readonly ApiKeyScope[] {
  if (actor.apiKeyScopes) return actor.apiKeyScopes;
  return actor.via === "apiKey" ? [] : FULL_SCOPES;
}

export function hasScope(actor: Pick<Actor, "via" | "apiKeyScopes">, needed: ApiKeyScope) {
  return actorScopes(actor).some((s) => isScope(s) && RANK[s] >= RANK[needed]);
}

/** 403 FORBIDDEN naming the missing scope. Sessions always pass. */
export function requireScope(actor: Pick<Actor, "via" | "apiKeyScopes">, needed: ApiKeyScope) {
  if (!hasScope(actor, needed)) throw forbidden(`This API key lacks the ${needed} scope`);
}
