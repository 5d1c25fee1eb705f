import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { requestIdFrom, requestIdOf, stampRequestId } from "~/http/request-id.server";
import { toRequest } from "~/http/server/node-adapter.server";

/** Just the parts of an IncomingMessage that carry headers. */
function incoming(rawHeaders: string[]) {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i]!.toLowerCase()] ??= rawHeaders[i + 1]!;
  return { headers, rawHeaders, method: "GET", url: "/api/health", socket: {} } as unknown as IncomingMessage;
}

describe("request ids", () => {
  it("keeps a sane incoming id and replaces anything else with a new uuid", () => {
    expect(requestIdFrom("edge-1.a_B")).toBe("edge-1.a_B");
    expect(requestIdFrom(["first", "second"])).toBe("first");
    for (const bad of [undefined, null, "", "a b", "x".repeat(101), 'q"}']) expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("writes the id into both header views, once, so the Request built from them carries it", () => {
    const req = incoming(["Host", "x.test", "x-request-id", "bad id", "X-Request-ID", "second", "Accept", "*/*"]);
    stampRequestId(req, "made-1");
    expect(req.headers["x-request-id"]).toBe("made-1");
    expect(req.rawHeaders).toEqual(["Host", "x.test", "x-request-id", "made-1", "Accept", "*/*"]);

    const fresh = incoming(["Host", "x.test"]);
    stampRequestId(fresh, "made-2");
    expect(fresh.rawHeaders).toEqual(["Host", "x.test", "X-Request-Id", "made-2"]);
    const request = toRequest(fresh, {} as never, false);
    expect(requestIdOf(request)).toBe("made-2");
    expect(requestIdOf(new Request("http://x.test/"))).toBeUndefined();
  });
});
