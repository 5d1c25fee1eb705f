import type { Actor } from "../actor";
import { AppError } from "../errors";
import { flagEnabled } from "./store.server";

/**
 * Feature-flag gate used by the API boundary and the UI. The default resolver
 * is the flag store (./store.server: built-in defaults, stored flags with
 * user/organization/plan rules and percentage roll-outs, cached until the next
 * database write). `setFlagResolver` replaces it (tests, experiments).
 */
export type FlagResolver = (actor: Actor | null, key: string) => boolean | Promise<boolean>;

let resolver: FlagResolver = flagEnabled;

export function setFlagResolver(next: FlagResolver) {
  resolver = next;
}

export async function isFeatureEnabled(actor: Actor | null, key: string) {
  return resolver(actor, key);
}

export async function assertFeatureEnabled(actor: Actor | null, key: string) {
  if (!(await isFeatureEnabled(actor, key))) {
    throw new AppError("FEATURE_DISABLED", 403, `The ${key} feature is not enabled for your organization`, {
      extra: { flag: key },
    });
  }
}
