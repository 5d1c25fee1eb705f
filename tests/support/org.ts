import { expect } from "vitest";
import type { PlanId, Role } from "#db/schema";
import { db } from "~/db.server";
import { addMembership } from "~/domain/orgs/orgs.server";
import { type ApiResult, signedUpClient } from "./client";

/** Helpers for tests that need several people in one organization. */

export type Account = Awaited<ReturnType<typeof signedUpClient>>;

/** Registers a user and moves their session into `orgId` with `role`. */
export async function joinOrg(orgId: string, role: Role, name: string): Promise<Account> {
  const account = await signedUpClient({ name });
  await addMembership(db, orgId, account.user.id, role);
  await db.updateTable("sessions").set({ orgId }).where("userId", "=", account.user.id).execute();
  return account;
}

export const setPlan = (orgId: string, plan: PlanId) => db.updateTable("organizations").set({ plan }).where("id", "=", orgId).execute();

/** Asserts an error envelope with this status and code. */
export function expectError(res: ApiResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ code });
  expect(typeof res.body.error).toBe("string");
}

/**
 * Registers an account for an address listed in SUPERADMIN_EMAILS and marks
 * the address confirmed, as `npm run admin:create` or the confirmation mail
 * would: a listed address gives superadmin powers only once proven.
 */
export async function signedUpSuperadmin(overrides: Parameters<typeof signedUpClient>[0] & { email: string }) {
  const account = await signedUpClient(overrides);
  const now = new Date().toISOString();
  await db.updateTable("users").set({ emailVerifiedAt: now }).where("id", "=", account.user.id).execute();
  return { ...account, user: { ...account.user, emailVerified: true, isSuperadmin: true } };
}
