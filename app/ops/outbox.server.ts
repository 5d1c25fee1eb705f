import { db } from "~/db.server";
import { normalizeEmail } from "~/domain/users/users.server";

/**
 * Operator tool behind `npm run mail:outbox`: the newest messages to one
 * address, whole, one-time links included. Without SMTP_URL nothing leaves
 * the server and the app never shows confirmation or reset links to anyone
 * (docs/security.md, "Outbox"); the operator, who holds the database anyway,
 * reads them here and hands them over after checking who is asking.
 */
export async function outboxMessagesTo(address: string, limit = 10) {
  return db
    .selectFrom("emails")
    .select(["kind", "subject", "text", "status", "createdAt"])
    .where("toAddress", "=", normalizeEmail(address))
    .orderBy("createdAt", "desc")
    .limit(limit)
    .execute();
}
