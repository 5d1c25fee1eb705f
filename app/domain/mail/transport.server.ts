import type { Transporter } from "nodemailer";
import { config } from "~/config.server";

let transporter: Transporter | undefined;
let transporterUrl: string | undefined;

/** The SMTP transport for SMTP_URL, or null when mail goes to the outbox only (nodemailer is loaded on first use). */
export async function smtpTransport(): Promise<Transporter | null> {
  const url = config().SMTP_URL;
  if (!url) return null;
  if (!transporter || transporterUrl !== url) {
    const { default: nodemailer } = await import("nodemailer");
    transporter = nodemailer.createTransport(url, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as never);
    transporterUrl = url;
  }
  return transporter;
}
