import { resetConfigForTests } from "~/config.server";
import { remixHandler } from "./build";
import { ORIGIN } from "./client";
import type { Account } from "./org";

/** Helpers for tests that drive the AI endpoints against the provider stand-ins in tests/mocks. */

/** Sets (or, with undefined, removes) environment variables and re-reads the configuration. */
export function setEnv(values: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
}

/** The key a recorded provider request carried, in whichever header its SDK put it. */
export function sentKey(headers: Record<string, string>) {
  return headers["x-goog-api-key"] ?? headers["x-api-key"] ?? headers.authorization?.replace(/^Bearer\s+/i, "") ?? null;
}

/**
 * Opens a POST that answers as a stream, without reading it to the end: the
 * caller reads what it needs and may abort, as a browser tab that closes.
 */
export async function openStream(account: Account, path: string, body: unknown) {
  const controller = new AbortController();
  const headers = new Headers({
    "Content-Type": "application/json",
    Accept: "text/event-stream",
    Origin: ORIGIN,
    Host: new URL(ORIGIN).host,
    Cookie: [...account.client.jar].map(([k, v]) => `${k}=${v}`).join("; "),
  });
  const request = new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: JSON.stringify(body), signal: controller.signal });
  const response = await remixHandler()(request, { ip: account.client.ip });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    response,
    controller,
    /** Reads until the stream ends; returns everything received. */
    async readToEnd() {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += value;
      }
    },
    /** Reads until the received text contains `needle`. */
    async readUntil(needle: string) {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before "${needle}": ${text}`);
        text += value;
      }
      return text;
    },
  };
}

/** Waits until `check` is true (polling), or fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 3000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
