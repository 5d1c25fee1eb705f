import type { Actor } from "../actor";
import { AppError } from "../errors";

/**
 * Feature-flag gate used by the API boundary and the UI. The flag store
 * (per organization, per plan, percentage roll-outs) plugs in with
 * `setFlagResolver`; until one is set, every flag is on.
 */
export type FlagResolver = (actor: Actor | null, key: string) => boolean | Promise<boolean>;

let resolver: FlagResolver = () => true;

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
