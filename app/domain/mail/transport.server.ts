import nodemailer, { type Transporter } from "nodemailer";
import { config } from "~/config.server";

let transporter: Transporter | undefined;
let transporterUrl: string | undefined;

/** The SMTP transport for SMTP_URL, or null when mail goes to the outbox only. */
export function smtpTransport(): Transporter | null {
  const url = config().SMTP_URL;
  if (!url) return null;
  if (!transporter || transporterUrl !== url) {
    transporter = nodemailer.createTransport(url, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as never);
    transporterUrl = url;
  }
  return transporter;
}
