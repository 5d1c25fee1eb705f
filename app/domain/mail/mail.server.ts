import { sql } from "kysely";
import { config } from "~/config.server";
import { db, type Executor } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import type { JobHandler } from "~/jobs/types";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { brandEmailHtml } from "../branding/email-branding.server";
import { smtpTransport } from "./transport.server";

/** The job type that sends one queued message. */
export const EMAIL_SEND_JOB = "email.send";

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer | Uint8Array;
}

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
  orgId?: string | null;
  /** Files sent with the message (stored base64 in emails.attachments until sent). */
  attachments?: EmailAttachment[];
}

interface StoredAttachment {
  filename: string;
  contentType: string;
  /** base64 */
  content: string;
}

/** Whether mail leaves the server (SMTP_URL); otherwise it stays in the outbox and links are handed over by admins. */
export const mailIsDelivered = () => Boolean(config().SMTP_URL);

/**
 * Queues an e-mail in the caller's transaction. A persisted job sends it over
 * SMTP (retrying failures) or, without SMTP_URL, files it in the outbox.
 * `send: "caller"`: no job is queued; the caller sends it with sendQueuedEmail
 * from a job of its own (whose retries then cover the message).
 */
export async function queueEmail(trx: Executor, email: OutgoingEmail, options: { send?: "job" | "caller" } = {}) {
  const id = newId();
  const attachments: StoredAttachment[] | null = email.attachments?.length
    ? email.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content).toString("base64") }))
    : null;
  await trx
    .insertInto("emails")
    .values({
      id,
      orgId: email.orgId ?? null,
      toAddress: email.to,
      subject: email.subject,
      text: email.text,
      // The organization's branding (company name, colour, logo) heads the HTML version.
      html: await brandEmailHtml(email.orgId, email.html, trx),
      kind: email.kind,
      status: "queued",
      attempts: 0,
      lastError: null,
      sentAt: null,
      createdAt: nowIso(),
      attachments: attachments ? JSON.stringify(attachments) : null,
    })
    .execute();
  if (options.send !== "caller") await enqueue(trx, EMAIL_SEND_JOB, { emailId: id });
  return id;
}

/** Once a message is sent (or filed), its files are not kept: names and types stay for the outbox. */
function withoutContent(attachments: string | null | undefined) {
  if (!attachments) return null;
  return JSON.stringify((JSON.parse(attachments) as StoredAttachment[]).map((a) => ({ filename: a.filename, contentType: a.contentType, content: "" })));
}

/**
 * Sends one queued message over SMTP, or files it in the outbox without
 * SMTP_URL. Already sent: nothing happens. A failure is recorded on the
 * message and thrown, for the calling job to retry.
 */
export async function sendQueuedEmail(emailId: string) {
  const email = await db.selectFrom("emails").selectAll().where("id", "=", emailId).executeTakeFirst();
  if (!email || email.status === "sent" || email.status === "outbox") return;
  const transport = await smtpTransport();
  if (!transport) {
    await db
      .updateTable("emails")
      .set({ status: "outbox", sentAt: nowIso(), attachments: withoutContent(email.attachments) })
      .where("id", "=", emailId)
      .execute();
    return;
  }
  try {
    const attachments = email.attachments ? (JSON.parse(email.attachments) as StoredAttachment[]) : [];
    await transport.sendMail({
      from: config().MAIL_FROM,
      to: email.toAddress,
      subject: email.subject,
      text: email.text,
      html: email.html ?? undefined,
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, "base64") })),
    });
  } catch (error) {
    await db
      .updateTable("emails")
      .set((eb) => ({ attempts: eb("attempts", "+", 1), lastError: String((error as Error).message ?? error) }))
      .where("id", "=", emailId)
      .execute();
    throw error;
  }
  await db
    .updateTable("emails")
    .set((eb) => ({ status: "sent", sentAt: nowIso(), attempts: eb("attempts", "+", 1), lastError: null, attachments: withoutContent(email.attachments) }))
    .where("id", "=", emailId)
    .execute();
}

/** Marks a message that will not be sent any more as failed (unless it went out meanwhile). */
export async function giveUpEmail(emailId: string) {
  await db.updateTable("emails").set({ status: "failed" }).where("id", "=", emailId).where("status", "=", "queued").execute();
}

/** Sends one queued message (listed in app/jobs/handlers.server.ts). */
export const emailSendJob: JobHandler = {
  run: ({ emailId }: { emailId: string }) => sendQueuedEmail(emailId),
  onGiveUp: ({ emailId }: { emailId: string }) => giveUpEmail(emailId),
};

/** Messages that carry a secret proving ownership of the address (their links are never shown in the app). */
export const ACCOUNT_SECRET_KINDS = ["verify_email", "reset_password"] as const;
/** Messages sent to an address rather than an account (invitations, personal review links): only the sending organization's admins read them. */
export const ADDRESS_KINDS = ["invitation", "stakeholder_review"] as const;

const WITHHELD =
  "This message carries a one-time link for its addressee alone, so it is not shown in the app. " +
  "Without an SMTP server (SMTP_URL) such links cannot be delivered; an operator can read them on the server.";

/**
 * The outbox (docs/security.md, "Outbox"). No account ever reads a token
 * mailed to an address it has not proven it owns:
 * - owners and admins read their organization's messages, invitations
 *   included (the link is theirs to hand over), but never the text of a
 *   verification or password-reset message;
 * - anyone reads messages to their own address that were written for their
 *   account: sent by an organization they belong to (or by none, such as the
 *   digest), after the account was created, and not an invitation; the text
 *   of verification and reset messages is withheld from them too, since
 *   registering an address proves nothing.
 */
export async function outboxFor(actor: Actor, limit = 100) {
  const [memberships, account] = await Promise.all([
    db.selectFrom("memberships").select(["orgId", "role"]).where("userId", "=", actor.user.id).execute(),
    db.selectFrom("users").select("createdAt").where("id", "=", actor.user.id).executeTakeFirstOrThrow(),
  ]);
  const adminOrgIds = memberships.filter((m) => m.role === "owner" || m.role === "admin").map((m) => m.orgId);
  const memberOrgIds = memberships.map((m) => m.orgId);
  const messages = await db
    .selectFrom("emails")
    .select(["id", "orgId", "toAddress", "subject", "text", "kind", "status", "attempts", "lastError", "sentAt", "createdAt"])
    // Attachment names only, never the files.
    .select(sql<string | null>`(SELECT json_group_array(json_extract(value, '$.filename')) FROM json_each(emails.attachments))`.as("attachmentNames"))
    .where((eb) =>
      eb.or([
        ...(adminOrgIds.length ? [eb("orgId", "in", adminOrgIds)] : []),
        eb.and([
          eb("toAddress", "=", actor.user.email),
          eb("createdAt", ">=", account.createdAt),
          eb("kind", "not in", [...ADDRESS_KINDS]),
          eb.or([eb("orgId", "is", null), ...(memberOrgIds.length ? [eb("orgId", "in", memberOrgIds)] : [])]),
        ]),
      ]),
    )
    .orderBy("createdAt", "desc")
    .limit(limit)
    .execute();
  const secret = new Set<string>(ACCOUNT_SECRET_KINDS);
  return {
    messages: messages.map(({ attachmentNames, orgId: _orgId, ...m }) => ({
      ...m,
      withheld: secret.has(m.kind),
      text: secret.has(m.kind) ? WITHHELD : m.text,
      attachments: attachmentNames ? (JSON.parse(attachmentNames) as string[]) : [],
    })),
    smtpConfigured: Boolean(config().SMTP_URL),
    isAdmin: adminOrgIds.length > 0,
  };
}
