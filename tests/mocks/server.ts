import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createAnthropicMock } from "./anthropic";
import { createGoogleMock } from "./google";
import { createOpenAIMock } from "./openai";
import { refusingTrackerHandlers } from "./trackers-refusing";
import { loopbackOnly } from "./unhandled";

/**
 * One msw server answering for all three AI providers at their default base
 * URLs. Unhandled requests (the app's own server, loopback fakes) pass
 * through.
 *
 *   const ai = useAiMocks();
 *   ai.openai.queue({ kind: "http_error", status: 429, retryAfterSeconds: 2 });
 *
 * SDK clients capture the global `fetch` when they are constructed, so
 * create them after `server.listen()` (inside tests or a later beforeAll).
 */
export const aiMocks = {
  openai: createOpenAIMock(),
  anthropic: createAnthropicMock(),
  google: createGoogleMock(),
};

export function setupAiMockServer() {
  const server = setupServer(...aiMocks.openai.handlers, ...aiMocks.anthropic.handlers, ...aiMocks.google.handlers, ...refusingTrackerHandlers);
  // msw tees every response body to hand a clone to "response:*" listeners.
  // Unread, that clone makes `body.cancel()` on the real one wait forever
  // (a tee's cancel settles only when both branches are cancelled), so a
  // client that stops reading a stream early (the SDKs do on `break`) would
  // hang. Nobody here reads the clones: cancel them at once.
  for (const type of ["response:mocked", "response:bypass"] as const) {
    server.events.on(type, ({ response }) => {
      if (response.body && !response.bodyUsed) void response.body.cancel().catch(() => {});
    });
  }
  // Unhandled requests reach loopback only (the app itself, loopback fakes); anything else fails.
  const listen = server.listen.bind(server);
  server.listen = (options = {}) => listen({ onUnhandledRequest: loopbackOnly, ...options });
  return server;
}

export function resetAiMocks() {
  aiMocks.openai.reset();
  aiMocks.anthropic.reset();
  aiMocks.google.reset();
}

/** Registers vitest hooks: listen before all, reset queues and recorded requests after each, close after all. */
export function useAiMocks() {
  const server = setupAiMockServer();
  beforeAll(() => server.listen());
  afterEach(() => resetAiMocks());
  afterAll(() => server.close());
  return aiMocks;
}
