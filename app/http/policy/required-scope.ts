import type { Role } from "#db/schema";
import type { ApiKeyScope } from "~/domain/api-keys/scopes";
import type { Contract } from "../api/contract";

/** Plain data and no server imports: the contracts (app/http/api/contract.ts) re-export it. */

const ADMINISTRATORS: readonly Role[] = ["owner", "admin"];

/**
 * The scope an API key needs for a contract: its own `scope`, else `read` for
 * a GET, `admin` for a change only owners or admins may make (organization
 * administration: keys, members, invitations, webhooks, billing, allowlist,
 * deleting data...), `write` for any other change. Deriving `admin` from
 * `roles` means a new admin-only endpoint needs the admin scope without anyone
 * remembering to say so.
 */
export function requiredScope(c: Pick<Contract, "method" | "roles" | "scope">): ApiKeyScope {
  if (c.scope) return c.scope;
  if (c.method === "GET") return "read";
  return c.roles?.length && c.roles.every((r) => ADMINISTRATORS.includes(r)) ? "admin" : "write";
}
