import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";

/**
 * E-mail delivery over a real SMTP conversation with a loopback stand-in.
 *
 * config() is parsed once and cached on first use, and setup.ts's beforeAll
 * (migrations) is its first caller. So the stand-in is started and SMTP_URL set
 * here at module top level, before any hook runs, and app modules are only
 * imported dynamically afterwards.
 */

interface Received {
  mailFrom: string | undefined;
  rcptTo: string[];
  raw: string;
}

type Mode = "ok" | "fail-first-rcpt" | "fail-every-data";

const received: Received[] = [];
let mode: Mode = "ok";
let rejections = 0;

function temporaryFailure(message: string) {
  return Object.assign(new Error(message), { responseCode: 451 });
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onRcptTo(_address, _session, callback) {
    if (mode === "fail-first-rcpt" && rejections === 0) {
      rejections++;
      callback(temporaryFailure("Mailbox temporarily unavailable"));
      return;
    }
    callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      if (mode === "fail-every-data") {
        rejections++;
        callback(temporaryFailure("Local processing error, try again later"));
        return;
      }
      const mailFrom = session.envelope.mailFrom;
      received.push({
        mailFrom: mailFrom ? mailFrom.address : undefined,
        rcptTo: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString("utf8"),
      });
      callback();
    });
  },
});

await new Promise<void>((resolve, reject) => {
  smtp.once("error", reject);
  smtp.listen(0, "127.0.0.1", () => resolve());
});
const smtpPort = (smtp.server.address() as AddressInfo).port;
process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** Splits a raw RFC 5322 message into (unfolded, lower-cased) headers and body. */
function parseMessage(raw: string) {
  const normalized = raw.replace(/\r\n/g, "\n");
  const split = normalized.indexOf("\n\n");
  const head = split === -1 ? normalized : normalized.slice(0, split);
  const body = split === -1 ? "" : normalized.slice(split + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

async function app() {
  const { db } = await import("~/db.server");
  const { queueEmail } = await import("~/domain/mail/mail.server");
  const { runDueJobs } = await import("~/jobs/worker.server");
  (await import("~/jobs/handlers.server")).registerBackgroundWork();
  return { db, queueEmail, runDueJobs };
}

async function emailRow(id: string) {
  const { db } = await app();
  return db.selectFrom("emails").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function jobsFor(emailId: string) {
  const { db } = await app();
  const jobs = await db.selectFrom("jobs").selectAll().where("type", "=", "email.send").execute();
  return jobs.filter((j) => JSON.parse(j.payload).emailId === emailId);
}

async function queue(to: string, subject: string, text: string) {
  const { db, queueEmail } = await app();
  return db.transaction().execute((trx) => queueEmail(trx, { to, subject, text, kind: "test" }));
}

beforeEach(async () => {
  received.length = 0;
  mode = "ok";
  rejections = 0;
  const { db } = await app();
  await db.deleteFrom("jobs").execute();
  await db.deleteFrom("emails").execute();
});

describe("e-mail delivery over SMTP", () => {
  it("uses the SMTP_URL of the environment", async () => {
    const { config } = await import("~/config.server");
    expect(config().SMTP_URL).toBe(`smtp://127.0.0.1:${smtpPort}`);
  });

  it("queueEmail in a transaction + runDueJobs delivers the message and marks it sent", async () => {
    const { runDueJobs } = await app();
    const id = await queue("alice@example.com", "Welcome aboard", "Hello Alice,\nyour account is ready.");

    const before = await emailRow(id);
    expect(before.status).toBe("queued");
    expect(before.sentAt).toBeNull();
    const queuedJobs = await jobsFor(id);
    expect(queuedJobs).toHaveLength(1);
    expect(queuedJobs[0]!.status).toBe("queued");
    expect(received).toHaveLength(0);

    expect(await runDueJobs()).toBe(1);

    expect(received).toHaveLength(1);
    const message = received[0]!;
    expect(message.rcptTo).toEqual(["alice@example.com"]);
    expect(message.mailFrom).toBe("no-reply@localhost");
    const { headers, body } = parseMessage(message.raw);
    expect(headers.to).toContain("alice@example.com");
    expect(headers.subject).toBe("Welcome aboard");
    expect(headers.from).toContain("no-reply@localhost");
    expect(body).toContain("Hello Alice,");
    expect(body).toContain("your account is ready.");

    const after = await emailRow(id);
    expect(after.status).toBe("sent");
    expect(after.attempts).toBe(1);
    expect(after.lastError).toBeNull();
    expect(after.sentAt).not.toBeNull();
    const [job] = await jobsFor(id);
    expect(job!.status).toBe("done");

    // Nothing left to do: the message is not sent twice.
    expect(await runDueJobs()).toBe(0);
    expect(received).toHaveLength(1);
  });

  it("a temporary SMTP failure (451) re-queues the job with backoff and a later run delivers it", async () => {
    const { runDueJobs } = await app();
    mode = "fail-first-rcpt";
    const id = await queue("bob@example.com", "Your report", "The weekly report is attached.");

    const t0 = new Date();
    expect(await runDueJobs({ now: t0 })).toBe(1);
    expect(rejections).toBe(1);
    expect(received).toHaveLength(0);

    const failed = await emailRow(id);
    expect(failed.status).toBe("queued");
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/451/);
    expect(failed.sentAt).toBeNull();

    const [job] = await jobsFor(id);
    expect(job!.status).toBe("queued");
    expect(job!.attempts).toBe(1);
    expect(job!.lockedAt).toBeNull();
    expect(job!.lastError).toMatch(/451/);
    const runAt = new Date(job!.runAt);
    expect(runAt.getTime()).toBeGreaterThan(t0.getTime());
    expect(runAt.getTime()).toBe(t0.getTime() + 30_000);

    // Not due yet: nothing runs, nothing is sent.
    expect(await runDueJobs({ now: new Date(runAt.getTime() - 1) })).toBe(0);
    expect(received).toHaveLength(0);

    expect(await runDueJobs({ now: new Date(runAt.getTime() + 1) })).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]!.rcptTo).toEqual(["bob@example.com"]);
    expect(parseMessage(received[0]!.raw).headers.subject).toBe("Your report");

    const sent = await emailRow(id);
    expect(sent.status).toBe("sent");
    expect(sent.attempts).toBe(2);
    expect(sent.lastError).toBeNull();
    expect(sent.sentAt).not.toBeNull();
    const [doneJob] = await jobsFor(id);
    expect(doneJob!.status).toBe("done");
    expect(doneJob!.attempts).toBe(2);
  });

  it("a message that fails on every attempt ends failed after 6 attempts", async () => {
    const { runDueJobs } = await app();
    mode = "fail-every-data";
    const id = await queue("carol@example.com", "Never arrives", "This one keeps bouncing.");

    let now = new Date();
    for (let attempt = 1; attempt <= 6; attempt++) {
      expect(await runDueJobs({ now })).toBe(1);
      const email = await emailRow(id);
      const [job] = await jobsFor(id);
      expect(email.attempts).toBe(attempt);
      expect(email.lastError).toMatch(/451/);
      expect(job!.attempts).toBe(attempt);
      if (attempt < 6) {
        expect(email.status).toBe("queued");
        expect(job!.status).toBe("queued");
        const runAt = new Date(job!.runAt);
        expect(runAt.getTime()).toBeGreaterThan(now.getTime());
        // Not due a millisecond early.
        expect(await runDueJobs({ now: new Date(runAt.getTime() - 1) })).toBe(0);
        now = runAt;
      } else {
        expect(email.status).toBe("failed");
        expect(job!.status).toBe("failed");
      }
    }

    expect(rejections).toBe(6);
    expect(received).toHaveLength(0);
    // Given up for good: no seventh attempt, however late.
    expect(await runDueJobs({ now: new Date(now.getTime() + 7 * 24 * 3600 * 1000) })).toBe(0);
    expect(rejections).toBe(6);
    const final = await emailRow(id);
    expect(final.status).toBe("failed");
    expect(final.sentAt).toBeNull();
  });

  it("an e-mail queued in a rolled-back transaction leaves no email row and no job", async () => {
    const { db, queueEmail, runDueJobs } = await app();
    let queuedId: string | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        queuedId = await queueEmail(trx, {
          to: "dave@example.com",
          subject: "Rolled back",
          text: "You should never see this.",
          kind: "test",
        });
        throw new Error("abort the transaction");
      }),
    ).rejects.toThrow("abort the transaction");

    expect(queuedId).toBeTypeOf("string");
    expect(await db.selectFrom("emails").selectAll().where("id", "=", queuedId!).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("emails").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("jobs").selectAll().execute()).toEqual([]);

    expect(await runDueJobs()).toBe(0);
    expect(received).toHaveLength(0);
  });
});
