import type { PlanId, Role } from "#db/schema";
import type { ApiKeyScope } from "./api-keys/scopes";
import { forbidden } from "./errors";

/** Who is calling a domain function, however they came in. */
export type Via = "session" | "apiKey";

export interface Actor {
  user: { id: string; email: string; name: string; emailVerified: boolean; timezone: string };
  org: { id: string; name: string; plan: PlanId };
  role: Role;
  via: Via;
  isSuperadmin: boolean;
  sessionId?: string;
  apiKeyId?: string;
  /** The key's scopes (api-keys/scopes.ts); they only narrow `role`. Absent for a session: full. */
  apiKeyScopes?: readonly ApiKeyScope[];
  /** Request metadata kept for the audit log. */
  ip: string | null;
  userAgent: string | null;
  /** The request's id, for log lines written while serving it (absent outside server.ts). */
  requestId?: string;
}

/** Request metadata for operations that run before anyone is signed in. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  /** Base URL for links in e-mails. */
  appUrl: string;
  /** The request's id, for log lines. */
  requestId?: string;
}

export const ADMIN_ROLES: readonly Role[] = ["owner", "admin"];

/** Roles that may create and change content (everyone but viewers). */
export const WRITER_ROLES: readonly Role[] = ["owner", "admin", "member"];

export function hasRole(actor: Actor, roles: readonly Role[]) {
  return roles.includes(actor.role);
}

/** Owner or admin of the actor's organization: the one check behind every admin page and action. */
export const isAdmin = (actor: Actor) => hasRole(actor, ADMIN_ROLES);

/** Anyone but a viewer: may create projects, templates, schedules… */
export const canWrite = (actor: Actor) => hasRole(actor, WRITER_ROLES);

/** Refuses viewers with 403 and the caller's own wording ("Viewers cannot create templates"). */
export function requireWriter(actor: Actor, message: string) {
  if (!canWrite(actor)) throw forbidden(message);
}

export function requireRole(actor: Actor, roles: readonly Role[], what = "do this") {
  if (!hasRole(actor, roles)) {
    const names = roles.map((r) => r[0]!.toUpperCase() + r.slice(1)).join(" or ");
    throw forbidden(`Only ${names} may ${what}`);
  }
}
