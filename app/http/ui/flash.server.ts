import { createCookie, redirect } from "@remix-run/node";
import { decrypt, encrypt } from "~/utils/crypto.server";

/**
 * One-time messages across a redirect (post/redirect/get), so reloading a
 * page never repeats a POST. Encrypted, because a flash may carry a secret
 * that is shown once (a new API key).
 */
const flashCookie = createCookie("__flash", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 120 });

export type Flash =
  | { kind: "notice"; message: string; tone?: "success" | "info" | "error" }
  | { kind: "apiKeyCreated"; apiKey: { name: string; key: string; prefix: string } };

export async function setFlash(flash: Flash) {
  return flashCookie.serialize(encrypt(JSON.stringify(flash)));
}

/** Post/redirect/get with a one-time notice shown on the next page. */
export async function redirectWithNotice(to: string, message: string, tone?: "success" | "info" | "error") {
  return redirect(to, { headers: { "Set-Cookie": await setFlash({ kind: "notice", message, ...(tone ? { tone } : {}) }) } });
}

/** Reads and clears the flash; send `headers` with the response. */
export async function readFlash(request: Request): Promise<{ flash: Flash | null; headers: HeadersInit }> {
  const raw = (await flashCookie.parse(request.headers.get("Cookie"))) as string | null;
  if (!raw) return { flash: null, headers: {} };
  const text = decrypt(raw);
  const clear = await flashCookie.serialize("", { maxAge: 0 });
  return { flash: text ? (JSON.parse(text) as Flash) : null, headers: { "Set-Cookie": clear } };
}
