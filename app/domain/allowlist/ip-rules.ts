import { BlockList, isIP } from "node:net";

/**
 * Parsing and matching of IP allowlist rules: single addresses and CIDR
 * blocks, IPv4 and IPv6. IPv4-mapped IPv6 (`::ffff:1.2.3.4`, prefix >= 96)
 * is treated as the IPv4 it carries, on both the rule and the client side.
 */
export interface IpRule {
  family: 4 | 6;
  /** Network address with host bits cleared, in canonical text form. */
  network: string;
  prefix: number;
  /** `network/prefix` */
  cidr: string;
}

const MAPPED_HIGH = 0xffffn; // ::ffff:0:0/96, shifted right by 32

function v4ToBig(address: string) {
  return address.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function bigToV4(n: bigint) {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join(".");
}

function v6ToBig(address: string): bigint {
  let text = address;
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    // Embedded IPv4 (`::ffff:1.2.3.4`): rewrite as two hex groups.
    const v4 = v4ToBig(last);
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const headParts = head ? head.split(":") : [];
  const restParts = rest ? rest.split(":") : [];
  const groups = rest === undefined ? headParts : [...headParts, ...Array(8 - headParts.length - restParts.length).fill("0"), ...restParts];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function bigToV6(n: bigint) {
  const groups = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt((7 - i) * 16)) & 0xffffn));
  // RFC 5952: compress the longest run (>= 2) of zero groups.
  let best = { start: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len) best = { start: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.len < 2) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.len).join(":")}`;
}

/** The address a request came from, normalised for matching; null if not an IP. */
export function normalizeAddress(raw: string | null | undefined): { address: string; family: 4 | 6 } | null {
  if (!raw) return null;
  const address = raw
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  const family = isIP(address);
  if (family === 4) return { address, family: 4 };
  if (family !== 6) return null;
  const n = v6ToBig(address);
  if (n >> 32n === MAPPED_HIGH) return { address: bigToV4(n & 0xffffffffn), family: 4 };
  return { address: bigToV6(n), family: 6 };
}

/** Parses `1.2.3.4`, `10.0.0.0/8`, `2001:db8::/32`, `::ffff:1.2.3.4/128`; null when invalid. */
export function parseRule(input: string): IpRule | null {
  const text = input.trim();
  const match = /^([^/\s%]+)(?:\/(\d{1,3}))?$/.exec(text);
  if (!match) return null;
  const addr = match[1]!;
  const family = isIP(addr);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  let prefix = match[2] === undefined ? max : Number(match[2]);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
  let value = family === 4 ? v4ToBig(addr) : v6ToBig(addr);
  let fam: 4 | 6 = family === 4 ? 4 : 6;
  if (family === 6 && value >> 32n === MAPPED_HIGH && prefix >= 96) {
    value &= 0xffffffffn;
    prefix -= 96;
    fam = 4;
  }
  const bits = fam === 4 ? 32 : 128;
  const all = (1n << BigInt(bits)) - 1n;
  const mask = prefix === 0 ? 0n : (all << BigInt(bits - prefix)) & all;
  const network = fam === 4 ? bigToV4(value & mask) : bigToV6(value & mask);
  return { family: fam, network, prefix, cidr: `${network}/${prefix}` };
}

/** A matcher for a list of rules (stored `cidr` strings). */
export function compileRules(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const rule = parseRule(cidr);
    if (rule) list.addSubnet(rule.network, rule.prefix, rule.family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

export function addressMatches(list: BlockList, raw: string | null | undefined): boolean {
  const address = normalizeAddress(raw);
  if (!address) return false;
  return list.check(address.address, address.family === 4 ? "ipv4" : "ipv6");
}
