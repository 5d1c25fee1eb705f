import { db } from "~/db.server";
import { nowIso, sha256 } from "~/utils/ids.server";
import { assertAllowed, RateLimiter } from "~/utils/rate-limiter.server";
import { verifyPassword } from "../auth/password.server";
import { AppError } from "../errors";
import type { ShareViewer } from "../projects/access.server";

const passwordFailures = new RateLimiter(60_000);

/**
 * Turns a share token (and password, when the share has one) into a
 * read-only viewer of that one project.
 * Unknown or revoked: 401 INVALID_TOKEN. Expired: 410 SHARE_EXPIRED.
 * Missing or wrong password: 401 SHARE_PASSWORD_REQUIRED.
 */
export async function resolveShare(token: string, password: string | null | undefined): Promise<ShareViewer> {
  const share = await db
    .selectFrom("projectShares as s")
    .innerJoin("projects as p", "p.id", "s.projectId")
    .select(["s.projectId", "s.passwordHash", "s.expiresAt", "p.orgId"])
    .where("s.tokenHash", "=", sha256(token.trim()))
    .executeTakeFirst();
  if (!share) throw new AppError("INVALID_TOKEN", 401, "This share link is invalid or has been revoked");
  if (share.expiresAt && share.expiresAt <= nowIso()) {
    throw new AppError("SHARE_EXPIRED", 410, "This share link has expired");
  }
  if (share.passwordHash) {
    if (!password) throw new AppError("SHARE_PASSWORD_REQUIRED", 401, "This share link needs a password");
    // Only wrong passwords count: 10 a minute per link, then 429.
    const key = `share:${share.projectId}`;
    assertAllowed(passwordFailures.peek(key, 10), "wrong passwords for this link");
    if (!(await verifyPassword(share.passwordHash, password))) {
      passwordFailures.hit(key, 10);
      throw new AppError("SHARE_PASSWORD_REQUIRED", 401, "The password for this share link is wrong");
    }
  }
  return { via: "share", projectId: share.projectId, orgId: share.orgId };
}
