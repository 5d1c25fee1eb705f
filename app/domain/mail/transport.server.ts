import type { Transporter } from "nodemailer";
import { config } from "~/config.server";

let transporter: Transporter | undefined;
let transporterKey: string | undefined;

/**
 * The SMTP transport for SMTP_URL, or null when mail goes to the outbox only
 * (nodemailer is loaded on first use). The timeouts go in the transport's
 * options, next to the URL: nodemailer reads a second argument as message
 * defaults, where they would be ignored. A server that never greets fails
 * after SMTP_TIMEOUT_MS; one that goes quiet mid-message (never answers the
 * end of the data, say) after twice that.
 */
export async function smtpTransport(): Promise<Transporter | null> {
  const { SMTP_URL: url, SMTP_TIMEOUT_MS: timeout } = config();
  if (!url) return null;
  const key = `${timeout} ${url}`;
  if (!transporter || transporterKey !== key) {
    const { default: nodemailer } = await import("nodemailer");
    transporter = nodemailer.createTransport(smtpOptions(url, timeout));
    transporterKey = key;
  }
  return transporter;
}

/** The transport options: the URL's own settings (host, port, auth, secure) win over these bounds. */
export function smtpOptions(url: string, timeout: number) {
  return { url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: 2 * timeout };
}
