import { createCookie } from "@remix-run/node";
import { config } from "~/config.server";

/**
 * The home page's first-run card ("You're using the offline drafter…") is
 * dismissed per browser: a cookie naming the user who dismissed it, so
 * another account signing in on the same browser still sees its own card.
 * It holds nothing secret; tampering with it can only hide a hint.
 */
const cookie = () =>
  createCookie("ai_prompt_dismissed", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: (config().APP_URL ?? "").startsWith("https://"),
    maxAge: 365 * 24 * 60 * 60,
  });

export async function aiPromptDismissed(request: Request, userId: string) {
  const value = (await cookie().parse(request.headers.get("Cookie"))) as unknown;
  return value === userId;
}

/** The Set-Cookie header value that dismisses the card for this user in this browser. */
export function dismissAiPrompt(userId: string) {
  return cookie().serialize(userId);
}
