import type { Role } from "#db/schema";
import { hasRole, type Actor } from "~/domain/actor";
import { requireScope } from "~/domain/api-keys/scopes";
import { requirePlan } from "~/domain/billing/limits.server";
import { forbidden, unauthorized } from "~/domain/errors";
import { assertFeatureEnabled } from "~/domain/flags/flags.server";
import { assertAllowed, rateHeaders } from "~/utils/rate-limiter.server";
import { acquireAiSlot, hitAiRate, usesProvider } from "../ai-rate.server";
import type { Contract } from "../api/contract";
import { requiredScope } from "./required-scope";

/**
 * The one policy of every door (docs/security.md, "One policy for every
 * door"). The /api endpoint wrapper, the MCP tool runner and the HTML UI's
 * action helpers (app/http/ui/intent-action.server.ts) call `guard` with the
 * /api contract of the operation, and nothing else decides these rules:
 *
 *   authentication kind -> role -> API-key scope -> plan -> feature flag
 *   -> (the input is read) -> AI rate -> AI concurrency slot
 *
 * A door only finds out who is calling (session, API key, share link) and
 * how its input arrives; what that caller may do is decided here, so a rule
 * added to a contract holds on every door at once.
 */

/** What the policy reads of a contract. */
export type Guarded = Pick<Contract, "method" | "auth" | "roles" | "scope" | "plan" | "flag" | "rateLimit" | "summary">;

export interface GuardInput<T> {
  /**
   * Reads the call's input once its authority is settled: a caller refused
   * by role or scope never has its body parsed, and a request that fails
   * validation costs no AI budget. Its `provider`, when it names one, decides
   * whether the AI rate counts the request.
   */
  read?: () => T | Promise<T>;
  /** A share-link viewer was resolved (`share` contracts): it stands in for a signed-in actor. */
  share?: boolean;
}

export interface Passed<T> {
  /** What `read` returned. */
  input: T;
  /** Headers for the answer (the AI rate's state). */
  headers: Record<string, string>;
  /** Gives back the AI slot taken for the call (none for other calls): call it once the work, or its stream, has ended. */
  release: (() => void) | undefined;
}

const an = (role: Role) => (role === "owner" || role === "admin" ? `an ${role}` : `a ${role}`);

/** The refusal in plain words, the same at every door: "Only owners, admins and members can do this; you are a viewer." */
export function roleRefusal(role: Role, allowed: readonly Role[]) {
  const names = allowed.map((r) => `${r}s`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "nobody");
  return `Only ${list} can do this; you are ${an(role)}.`;
}

/** Decides whether `actor` may make the call `contract` describes; throws the refusal (AppError) or returns the input and the AI slot's release. */
export async function guard<T = undefined>(actor: Actor | null, contract: Guarded, input: GuardInput<T> = {}): Promise<Passed<T>> {
  if (!actor && (contract.auth === "user" || (contract.auth === "share" && !input.share))) throw unauthorized();
  if (actor && contract.roles && !hasRole(actor, contract.roles)) throw forbidden(roleRefusal(actor.role, contract.roles));
  // API-key scopes narrow the creator's role (sessions pass); public operations ignore the actor's authority.
  if (actor && contract.auth !== "public") requireScope(actor, requiredScope(contract));
  if (actor && contract.plan) requirePlan(actor.org, contract.plan, contract.summary);
  if (contract.flag) await assertFeatureEnabled(actor, contract.flag);
  const value = (input.read ? await input.read() : undefined) as T;
  const headers: Record<string, string> = {};
  if (contract.rateLimit !== "ai" || !actor) return { input: value, headers, release: undefined };
  // Requests the offline drafter answers cost nothing and are not counted (docs/ai.md); all take a slot.
  if (await usesProvider(actor, (value as { provider?: unknown } | undefined)?.provider)) {
    const rate = hitAiRate(actor);
    Object.assign(headers, rateHeaders(rate));
    assertAllowed(rate, "AI requests");
  }
  return { input: value, headers, release: acquireAiSlot(actor) };
}
