/**
 * Operator tool: print the newest messages sent to one address, links included.
 *   npm run mail:outbox -- someone@example.com [count]
 * For servers without SMTP_URL, where the app never shows confirmation or
 * password-reset links (docs/security.md, "Outbox"). Check who is asking
 * before handing a link over: it is as good as the account's password.
 */
import { migrateToLatest } from "#db/client";
import { closeDb, db } from "~/db.server";
import { outboxMessagesTo } from "~/ops/outbox.server";

const [address, count] = process.argv.slice(2);
if (!address) {
  console.error("Usage: npm run mail:outbox -- <e-mail> [count]");
  process.exit(1);
}
try {
  await migrateToLatest(db);
  const messages = await outboxMessagesTo(address, Number(count) || 10);
  if (!messages.length) console.log(`No messages to ${address}.`);
  for (const m of messages) {
    console.log(`--- ${m.createdAt}  ${m.kind}  (${m.status})\nSubject: ${m.subject}\n\n${m.text}\n`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDb();
}
