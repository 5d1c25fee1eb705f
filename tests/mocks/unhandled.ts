/**
 * What the msw servers of the tests do with a request no handler answers:
 * the app under test and the loopback stand-ins (tests/mocks/openai-server.ts,
 * SMTP, webhooks receivers) are reached for real; anything else fails the
 * request, so a test never talks to the internet by accident and a missing
 * stand-in shows up as an error, not as a slow or flaky call.
 */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

export function loopbackOnly(request: Request, print: { error(): void }) {
  const url = new URL(request.url);
  // data: and blob: URLs never leave the process (an SDK reading a file it was given).
  if (url.protocol !== "http:" && url.protocol !== "https:") return;
  if (LOOPBACK.has(url.hostname) || url.hostname.endsWith(".localhost")) return;
  print.error();
}
