import { afterEach, describe, expect, it } from "vitest";
import { ipv6Bytes, isBlockedAddress, literalHostProblem } from "~/domain/webhooks/address.server";
import { setEnv } from "../support/ai";

describe("webhook target addresses", () => {
  afterEach(() => setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined }));

  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "[::1]",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.1.2.3",
    "::ffff:192.168.0.1",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "2002:c0a8:0101::1",
    "0:0:0:0:0:0:0:1",
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])(
    "allows public %s",
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );

  it("parses IPv6 forms into 16 bytes", () => {
    expect(ipv6Bytes("::1")).toEqual([...Array(15).fill(0), 1]);
    expect(ipv6Bytes("::ffff:1.2.3.4")!.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(ipv6Bytes("1::2::3")).toBeNull();
    expect(ipv6Bytes("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(ipv6Bytes("gggg::1")).toBeNull();
  });

  it("refuses literal private hosts and localhost names at creation, unless allowed", () => {
    for (const url of [
      "http://localhost:3000/x",
      "http://api.localhost/",
      "http://127.0.0.1/",
      "http://[::1]/",
      "http://2130706433/",
      "http://0x7f.1/",
      "https://10.0.0.1/hook",
      "http://[::ffff:192.168.0.1]/",
    ]) {
      expect(literalHostProblem(new URL(url)), url).not.toBeNull();
    }
    expect(literalHostProblem(new URL("https://hooks.example.com/x"))).toBeNull();
    expect(literalHostProblem(new URL("https://8.8.8.8/x"))).toBeNull();
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" });
    expect(literalHostProblem(new URL("http://127.0.0.1/"))).toBeNull();
  });
});
