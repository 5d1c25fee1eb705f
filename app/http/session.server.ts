import { createCookieSessionStorage } from "@remix-run/node";
import { config } from "~/config.server";
import { SESSION_TTL_MS } from "~/domain/sessions/sessions.server";

/**
 * One session cookie holding a session id that maps to a database row, so
 * sessions can be listed and revoked. Secrets rotate via SESSION_SECRET=a,b.
 */
let storage: ReturnType<typeof createCookieSessionStorage<{ sid: string }>> | undefined;

function sessionStorage() {
  storage ??= createCookieSessionStorage<{ sid: string }>({
    cookie: {
      name: "__session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: (config().APP_URL ?? "").startsWith("https://"),
      secrets: config().SESSION_SECRETS,
      maxAge: SESSION_TTL_MS / 1000,
    },
  });
  return storage;
}

export async function readSessionId(request: Request): Promise<string | null> {
  const cookie = request.headers.get("Cookie");
  if (!cookie || !cookie.includes("__session=")) return null;
  const session = await sessionStorage().getSession(cookie);
  const sid = session.get("sid");
  return typeof sid === "string" ? sid : null;
}

/** A Set-Cookie value that signs the browser in to `sessionId`. */
export async function sessionCookie(sessionId: string) {
  const session = await sessionStorage().getSession();
  session.set("sid", sessionId);
  return sessionStorage().commitSession(session);
}

/** A Set-Cookie value that clears the session cookie. */
export async function clearSessionCookie() {
  const session = await sessionStorage().getSession();
  return sessionStorage().destroySession(session);
}
