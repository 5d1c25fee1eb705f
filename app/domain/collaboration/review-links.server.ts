import { appUrl } from "~/config.server";
import { db, type Executor } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { nowIso, randomToken, sha256 } from "~/utils/ids.server";
import { assertAllowed, RateLimiter } from "~/utils/rate-limiter.server";
import type { Actor } from "../actor";
import { notFound } from "../errors";
import { queueEmail } from "../mail/mail.server";
import { reviewLinkMessage } from "./review-mail";

/**
 * Personal review links: every review request has its own secret token
 * (256 random bits). It is stored as a SHA-256 hash (unique, for look-up) and
 * encrypted (AES-256-GCM, so the team can copy the link again), as the share
 * link's token is. The link opens `/review/<token>`, which shows the PRD and
 * records the decision under the named reviewer.
 */

/** The kind of the e-mail that carries a personal review link (read in the outbox by admins only). */
export const REVIEW_LINK_MAIL_KIND = "stakeholder_review";

export function issueReviewToken() {
  const token = randomToken(32);
  return { token, hash: sha256(token), encrypted: encrypt(token) };
}

export const reviewLinkUrl = (token: string) => `${appUrl()}/review/${encodeURIComponent(token)}`;

/** The personal link of a stored review request, or null (plain views, or a token that no longer decrypts). */
export function storedReviewUrl(reviewTokenEncrypted: string | null) {
  const token = reviewTokenEncrypted ? decrypt(reviewTokenEncrypted) : null;
  return token ? reviewLinkUrl(token) : null;
}

/** Look-ups of tokens that match nothing, per IP: 30 a minute, then 429 (a guess has 2^-256 odds; this keeps the noise down). */
const misses = new RateLimiter(60_000);
const MISSES_PER_MINUTE = 30;

/** Decisions through one personal link: 20 a minute, then 429. */
const decisions = new RateLimiter(60_000);
export const DECISIONS_PER_MINUTE = 20;

export function assertMissesAllowed(ip: string | null | undefined) {
  if (ip) assertAllowed(misses.peek(`review-miss:${ip}`, MISSES_PER_MINUTE), "unknown review links from this address");
}

export function countMiss(ip: string | null | undefined) {
  if (ip) misses.hit(`review-miss:${ip}`, MISSES_PER_MINUTE);
}

export function hitDecision(reviewId: string) {
  assertAllowed(decisions.hit(`review-decision:${reviewId}`, DECISIONS_PER_MINUTE), "decisions on this review");
}

/** The review request a personal token opens, with its project's organization; undefined when none. */
export async function findByReviewToken(token: string, executor: Executor = db) {
  const trimmed = token.trim();
  if (!trimmed) return undefined;
  return executor
    .selectFrom("stakeholderViews as v")
    .innerJoin("projects as p", "p.id", "v.projectId")
    .selectAll("v")
    .select(["p.orgId", "p.name as projectName"])
    .where("v.reviewTokenHash", "=", sha256(trimmed))
    .where("v.reviewStatus", "is not", null)
    .executeTakeFirst();
}

/**
 * The review request behind a personal link, for the public review page.
 * Unknown: 404 (counted per IP; beyond the limit 429 before looking).
 */
export async function openReviewLink(token: string, options: { ip?: string | null } = {}) {
  assertMissesAllowed(options.ip);
  const row = await findByReviewToken(token);
  if (!row) {
    countMiss(options.ip);
    throw notFound("Review");
  }
  return row;
}

/**
 * Mails the personal link to the request's stakeholder e-mail (through the
 * outbox job: SMTP, or filed in the outbox without it) and records when and
 * to whom, in the caller's transaction.
 */
export async function mailReviewLink(
  trx: Executor,
  input: {
    actor: Actor;
    project: { id: string; orgId: string; name: string };
    view: { id: string; name: string; stakeholderName: string | null; audience: string | null; notes: string | null };
    to: string;
    token: string;
  },
) {
  await queueEmail(trx, {
    to: input.to,
    orgId: input.project.orgId,
    kind: REVIEW_LINK_MAIL_KIND,
    ...reviewLinkMessage({
      requesterName: input.actor.user.name,
      reviewerName: input.view.stakeholderName,
      projectName: input.project.name,
      reviewName: input.view.name,
      notes: input.view.notes,
      url: reviewLinkUrl(input.token),
    }),
  });
  const now = nowIso();
  await trx.updateTable("stakeholderViews").set({ reviewLinkSentAt: now, reviewLinkSentTo: input.to }).where("id", "=", input.view.id).execute();
  return { sentAt: now, sentTo: input.to };
}
