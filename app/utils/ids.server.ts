import crypto from "node:crypto";

export const newId = () => crypto.randomUUID();

export const nowIso = (date = new Date()) => date.toISOString();

/** A random URL-safe secret, e.g. for one-time tokens and share links. */
export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString("base64url");

export const sha256 = (value: string) => crypto.createHash("sha256").update(value).digest("hex");

export function safeEqual(a: string, b: string) {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
