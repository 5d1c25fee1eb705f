import { config } from "~/config.server";
import { db, type Executor } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import { registerJobHandler } from "~/jobs/worker.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { brandEmailHtml } from "../branding/email-branding.server";
import { smtpTransport } from "./transport.server";

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
  orgId?: string | null;
}

/**
 * Queues an e-mail in the caller's transaction. A persisted job sends it over
 * SMTP (retrying failures) or, without SMTP_URL, files it in the outbox.
 */
export async function queueEmail(trx: Executor, email: OutgoingEmail) {
  const id = newId();
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
    })
    .execute();
  await enqueue(trx, "email.send", { emailId: id });
  return id;
}

registerJobHandler("email.send", {
  async run({ emailId }: { emailId: string }) {
    const email = await db.selectFrom("emails").selectAll().where("id", "=", emailId).executeTakeFirst();
    if (!email || email.status === "sent" || email.status === "outbox") return;
    const transport = await smtpTransport();
    if (!transport) {
      await db.updateTable("emails").set({ status: "outbox", sentAt: nowIso() }).where("id", "=", emailId).execute();
      return;
    }
    try {
      await transport.sendMail({
        from: config().MAIL_FROM,
        to: email.toAddress,
        subject: email.subject,
        text: email.text,
        html: email.html ?? undefined,
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
      .set((eb) => ({ status: "sent", sentAt: nowIso(), attempts: eb("attempts", "+", 1), lastError: null }))
      .where("id", "=", emailId)
      .execute();
  },
  async onGiveUp({ emailId }: { emailId: string }) {
    await db.updateTable("emails").set({ status: "failed" }).where("id", "=", emailId).execute();
  },
});

/**
 * Messages a user may read in the outbox: those addressed to them, and for
 * owners every message of the organizations they own.
 */
export async function outboxFor(actor: Actor, limit = 100) {
  const owned = await db
    .selectFrom("memberships")
    .select("orgId")
    .where("userId", "=", actor.user.id)
    .where("role", "=", "owner")
    .execute();
  const ownedOrgIds = owned.map((o) => o.orgId);
  const messages = await db
    .selectFrom("emails")
    .select(["id", "toAddress", "subject", "text", "kind", "status", "attempts", "lastError", "sentAt", "createdAt"])
    .where((eb) =>
      eb.or([
        eb("toAddress", "=", actor.user.email),
        ...(ownedOrgIds.length ? [eb("orgId", "in", ownedOrgIds)] : []),
      ]),
    )
    .orderBy("createdAt", "desc")
    .limit(limit)
    .execute();
  return { messages, smtpConfigured: Boolean(config().SMTP_URL), isOwner: ownedOrgIds.length > 0 };
}
