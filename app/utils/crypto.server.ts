import crypto from "node:crypto";
import { config } from "~/config.server";

/** AES-256-GCM under ENCRYPTION_KEY. Output: base64url(iv | tag | ciphertext). */
export function encrypt(plaintext: string): string {
  return encryptWithKey(plaintext, config().ENCRYPTION_KEY);
}

/** Returns null when the value was not produced by `encrypt` with this key. */
export function decrypt(value: string): string | null {
  return decryptWithKey(value, config().ENCRYPTION_KEY);
}

/** `encrypt` under an explicit key (64 hexadecimal characters); used by key rotation. */
export function encryptWithKey(plaintext: string, hexKey: string): string {
  const key = Buffer.from(hexKey, "hex");
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64url");
}

/** `decrypt` under an explicit key; null when the value was not encrypted with it. */
export function decryptWithKey(value: string, hexKey: string): string | null {
  try {
    const raw = Buffer.from(value, "base64url");
    const key = Buffer.from(hexKey, "hex");
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
