import { db, type Executor } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { nowIso, randomToken, sha256 } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { hashPassword } from "../auth/password.server";
import { notFound, validationError } from "../errors";
import { requireManage } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import type { ShareInput } from "./collaboration.schema";

/**
 * A project's share link: one per project, read-only, optionally with a
 * password and an expiry. The token is stored hashed (for look-up) and
 * encrypted (so managers can copy the link again); the password is hashed.
 * Who may use a token is decided by share-access.server.ts.
 */

export interface ShareSettings {
  enabled: boolean;
  shareToken: string | null;
  shareUrl: string | null;
  hasPassword: boolean;
  expiresAt: string | null;
}

const shareUrl = (appUrl: string, token: string) => `${appUrl.replace(/\/$/, "")}/share/${encodeURIComponent(token)}`;

function loadShare(executor: Executor, projectId: string) {
  return executor.selectFrom("projectShares").selectAll().where("projectId", "=", projectId).executeTakeFirst();
}

function present(row: NonNullable<Awaited<ReturnType<typeof loadShare>>> | undefined, appUrl: string): ShareSettings {
  if (!row) return { enabled: false, shareToken: null, shareUrl: null, hasPassword: false, expiresAt: null };
  const token = decrypt(row.tokenEncrypted);
  return {
    enabled: true,
    shareToken: token,
    shareUrl: token ? shareUrl(appUrl, token) : null,
    hasPassword: row.passwordHash !== null,
    expiresAt: row.expiresAt,
  };
}

export async function getShare(actor: Actor, projectId: string, options: { appUrl: string }) {
  const { project } = await requireManage(actor, projectId);
  return present(await loadShare(db, project.id), options.appUrl);
}

/**
 * Turns sharing on, or changes the password/expiry of the existing link
 * (its token stays the same). `created` tells the two apart.
 */
export async function enableShare(actor: Actor, projectId: string, input: ShareInput, options: { appUrl: string }) {
  await requireManage(actor, projectId);
  let expiresAt: string | null | undefined = input.expiresAt;
  if (expiresAt) {
    const at = new Date(expiresAt);
    if (at.getTime() <= Date.now()) throw validationError("expiresAt", "expiresAt must be in the future");
    expiresAt = nowIso(at);
  }
  // Hash before the transaction: argon2 is slow and the database is not.
  const passwordHash = input.password ? await hashPassword(input.password) : input.password;

  return db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const existing = await loadShare(trx, project.id);
    const now = nowIso();
    if (existing) {
      const changes = {
        ...(passwordHash !== undefined ? { passwordHash } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      };
      if (Object.keys(changes).length) {
        await trx
          .updateTable("projectShares")
          .set({ ...changes, updatedAt: now })
          .where("projectId", "=", project.id)
          .execute();
        const next = { ...existing, ...changes };
        await recordChange(trx, {
          project,
          actor,
          action: "share.updated",
          summary: `${actor.user.name} changed the share link settings`,
          data: { hasPassword: next.passwordHash !== null, expiresAt: next.expiresAt },
        });
      }
      return { created: false, share: present(await loadShare(trx, project.id), options.appUrl) };
    }
    const token = randomToken(24);
    await trx
      .insertInto("projectShares")
      .values({
        projectId: project.id,
        tokenHash: sha256(token),
        tokenEncrypted: encrypt(token),
        passwordHash: passwordHash ?? null,
        expiresAt: expiresAt ?? null,
        createdById: actor.user.id,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await recordChange(trx, {
      project,
      actor,
      action: "share.enabled",
      summary: `${actor.user.name} turned on the share link`,
      data: { hasPassword: passwordHash != null, expiresAt: expiresAt ?? null },
      event: "share.enabled",
    });
    return { created: true, share: present(await loadShare(trx, project.id), options.appUrl) };
  });
}

/** Deletes the link: its token stops working at once (401 INVALID_TOKEN). */
export async function revokeShare(actor: Actor, projectId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const existing = await loadShare(trx, project.id);
    if (!existing) throw notFound("Share link");
    await trx.deleteFrom("projectShares").where("projectId", "=", project.id).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "share.revoked",
      summary: `${actor.user.name} turned off the share link`,
      data: {},
      event: "share.revoked",
    });
  });
}
