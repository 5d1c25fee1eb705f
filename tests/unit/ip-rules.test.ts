import { describe, expect, it } from "vitest";
import { addressMatches, compileRules, normalizeAddress, parseRule } from "~/domain/allowlist/ip-rules";
import { csvCell, toCsv } from "~/domain/audit/csv";

describe("IP allowlist rules", () => {
  it("normalises addresses and CIDRs (host bits cleared, bare address = /32 or /128)", () => {
    expect(parseRule("203.0.113.7")?.cidr).toBe("203.0.113.7/32");
    expect(parseRule(" 10.1.2.3/8 ")?.cidr).toBe("10.0.0.0/8");
    expect(parseRule("0.0.0.0/0")?.cidr).toBe("0.0.0.0/0");
    expect(parseRule("2001:0DB8:0000:0000:0000:0000:0000:0001")?.cidr).toBe("2001:db8::1/128");
    expect(parseRule("2001:db8:abcd::1/32")?.cidr).toBe("2001:db8::/32");
    expect(parseRule("::/0")?.cidr).toBe("::/0");
    expect(parseRule("::1")?.cidr).toBe("::1/128");
  });

  it("reads IPv4-mapped IPv6 as the IPv4 it carries", () => {
    expect(parseRule("::ffff:1.2.3.4")?.cidr).toBe("1.2.3.4/32");
    expect(parseRule("::ffff:10.0.0.0/104")?.cidr).toBe("10.0.0.0/8");
    expect(normalizeAddress("::ffff:1.2.3.4")).toEqual({ address: "1.2.3.4", family: 4 });
    expect(normalizeAddress("[2001:DB8::1]")).toEqual({ address: "2001:db8::1", family: 6 });
  });

  it("rejects what is not an address or has a bad prefix", () => {
    for (const bad of ["", "abc", "1.2.3", "1.2.3.4/33", "1.2.3.4/-1", "::1/129", "10.0.0.0/8/8", "256.1.1.1", "fe80::1%eth0", "1.2.3.4/ 8"]) {
      expect(parseRule(bad), bad).toBeNull();
    }
  });

  it("matches the edges: /0, /32, /128 and mapped clients", () => {
    const v4 = compileRules(["198.51.100.0/24", "203.0.113.9/32"]);
    expect(addressMatches(v4, "198.51.100.0")).toBe(true);
    expect(addressMatches(v4, "198.51.100.255")).toBe(true);
    expect(addressMatches(v4, "198.51.101.0")).toBe(false);
    expect(addressMatches(v4, "203.0.113.9")).toBe(true);
    expect(addressMatches(v4, "203.0.113.10")).toBe(false);
    expect(addressMatches(v4, "::ffff:203.0.113.9")).toBe(true);
    expect(addressMatches(v4, null)).toBe(false);
    expect(addressMatches(v4, "not-an-ip")).toBe(false);

    const all4 = compileRules(["0.0.0.0/0"]);
    expect(addressMatches(all4, "8.8.8.8")).toBe(true);
    expect(addressMatches(all4, "2001:db8::1")).toBe(false);

    const v6 = compileRules(["2001:db8::1/128", "fd00::/8"]);
    expect(addressMatches(v6, "2001:db8::1")).toBe(true);
    expect(addressMatches(v6, "2001:db8::2")).toBe(false);
    expect(addressMatches(v6, "fdff:ffff::1")).toBe(true);
    expect(addressMatches(compileRules(["::/0"]), "2a00::5")).toBe(true);
  });
});

describe("CSV cells", () => {
  it("quotes every cell, doubles quotes and neutralises formulas", () => {
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    for (const lead of ["+", "-", "@", "\t", "\r"]) expect(csvCell(`${lead}1`)).toBe(`"'${lead}1"`);
    expect(csvCell(null)).toBe('""');
    expect(toCsv(["a", "b"], [["x\ny", 1]])).toBe('"a","b"\r\n"x\ny","1"\r\n');
  });
});
