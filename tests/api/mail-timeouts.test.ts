import net from "node:net";
import { afterAll, beforeEach, describe, expect, it } from "vitest";

/**
 * SMTP servers that hang, the way production ones do: one accepts the
 * connection and never greets; one takes the whole message and never answers
 * its end. Each send must fail within its bound (SMTP_TIMEOUT_MS for the
 * greeting, twice that for a silent socket), so the job that sends it is
 * retried instead of held for minutes. Without the options in the transport
 * (nodemailer reads a second argument as message defaults), nodemailer's own
 * defaults apply: 30 s for the greeting, 10 minutes for a silent socket.
 */

const TIMEOUT_MS = 300;
process.env.SMTP_TIMEOUT_MS = String(TIMEOUT_MS);

type Mode = "silent" | "never-answers-data";
let mode: Mode = "silent";
const sockets = new Set<net.Socket>();

const server = net.createServer((socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
  socket.on("error", () => {});
  if (mode === "silent") return; // accepts, never says 220
  socket.write("220 stand-in ESMTP\r\n");
  let inData = false;
  let buffered = "";
  socket.on("data", (chunk) => {
    buffered += chunk.toString("latin1");
    let end: number;
    while ((end = buffered.indexOf("\r\n")) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (inData) {
        if (line === ".") inData = false; // the end of the message: never answered
        continue;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "EHLO" || verb === "HELO") socket.write("250 stand-in\r\n");
      else if (verb === "MAIL" || verb === "RCPT") socket.write("250 OK\r\n");
      else if (verb === "DATA") {
        inData = true;
        socket.write("354 go ahead\r\n");
      } else if (verb === "QUIT") socket.end("221 bye\r\n");
      else socket.write("250 OK\r\n");
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
process.env.SMTP_URL = `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function queueOne() {
  const { db } = await import("~/db.server");
  const { queueEmail } = await import("~/domain/mail/mail.server");
  return db.transaction().execute((trx) => queueEmail(trx, { to: "pm@example.com", subject: "Hello", text: "Body", kind: "test" }));
}

async function timedSend(emailId: string) {
  const { sendQueuedEmail } = await import("~/domain/mail/mail.server");
  const started = performance.now();
  const error = await sendQueuedEmail(emailId).then(
    () => null,
    (e: Error) => e,
  );
  return { error, ms: performance.now() - started };
}

beforeEach(async () => {
  const { db } = await import("~/db.server");
  await db.deleteFrom("jobs").execute();
  await db.deleteFrom("emails").execute();
});

describe("SMTP timeouts", () => {
  it("gives up on a server that never greets after SMTP_TIMEOUT_MS, and records why", async () => {
    mode = "silent";
    const id = await queueOne();
    const { error, ms } = await timedSend(id);
    expect(error?.message).toMatch(/greeting|timeout/i);
    // Bounded by the setting (plus scheduling slack), far below nodemailer's own 30 s.
    expect(ms).toBeLessThan(10_000);
    const { db } = await import("~/db.server");
    const row = await db.selectFrom("emails").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("queued");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/greeting|timeout/i);
  });

  it("gives up on a server that never answers the end of the message", async () => {
    mode = "never-answers-data";
    const id = await queueOne();
    const { error, ms } = await timedSend(id);
    expect(error?.message).toMatch(/timeout/i);
    expect(ms).toBeGreaterThanOrEqual(2 * TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(10_000);
  });

  it("keeps the URL's own settings and puts the bounds in the transport's options", async () => {
    const { smtpOptions } = await import("~/domain/mail/transport.server");
    const { default: nodemailer } = await import("nodemailer");
    const transport = nodemailer.createTransport(smtpOptions("smtp://user:secret@mail.example.com:2525", 1234));
    const options = (transport as unknown as { options: Record<string, unknown> }).options;
    expect(options).toMatchObject({ host: "mail.example.com", port: 2525, connectionTimeout: 1234, greetingTimeout: 1234, socketTimeout: 2468 });
    expect((options.auth as { user: string }).user).toBe("user");
  });
});
