import net from "node:net";
import type { ProviderId } from "~/ai/types";
import type { aiMocks } from "../mocks/server";
import type { ProviderMock } from "../mocks/scenario";

/** Helpers for the connection-test tests (tests/api/ai-key-connection*.test.ts). */

/** A loopback port nothing listens on: opened, read and closed again. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The stand-in that answers for a provider id. */
export function mockFor(mocks: typeof aiMocks, provider: ProviderId): ProviderMock {
  return { provider_a: mocks.openai, provider_b: mocks.anthropic, provider_c: mocks.google }[provider];
}
