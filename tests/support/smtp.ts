import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A loopback SMTP server that accepts every message: the mailbox of the
 * people the app writes to, for tests that need to read what was delivered.
 */

export interface DeliveredMail {
  to: string[];
  raw: string;
  /** The message with quoted-printable soft breaks and escapes undone (enough to find links). */
  decoded: string;
}

const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export async function startMailbox() {
  const received: DeliveredMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, decoded: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The first link in mail delivered to `address` whose URL contains `fragment`, newest message first. */
    link(address: string, fragment: string) {
      for (const mail of [...received].reverse()) {
        if (!mail.to.includes(address)) continue;
        const match = mail.decoded.match(new RegExp(`https?://[^\\s"<>]*${fragment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"<>]*`));
        if (match) return match[0];
      }
      return null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
