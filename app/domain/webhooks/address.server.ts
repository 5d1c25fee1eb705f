import dns from "node:dns";
import net from "node:net";
import { config } from "~/config.server";

/**
 * Which webhook targets are refused: private, loopback, link-local,
 * unique-local, CGNAT, unspecified, multicast and reserved addresses, in
 * IPv4 and IPv6 (IPv4-mapped, -compatible, NAT64 and 6to4 forms included),
 * unless ALLOW_PRIVATE_WEBHOOK_TARGETS=true.
 */

const blockedV4 = new net.BlockList();
for (const [net4, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(net4, prefix, "ipv4");
}

const blockedV6 = new net.BlockList();
for (const [net6, prefix] of [
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["2001::", 32], // Teredo
] as const) {
  blockedV6.addSubnet(net6, prefix, "ipv6");
}

/** The 16 bytes of an IPv6 address (dotted IPv4 tail allowed); null when malformed. */
export function ipv6Bytes(address: string): number[] | null {
  let text = address
    .replace(/^\[|\]$/g, "")
    .split("%")[0]!
    .toLowerCase();
  const tail: number[] = [];
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    if (net.isIPv4(dotted[1]!) === false) return null;
    const parts = dotted[1]!.split(".").map(Number);
    text = `${text.slice(0, -dotted[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s ? s.split(":") : []);
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    const v = parseInt(g, 16);
    tail.push(v >> 8, v & 0xff);
  }
  return tail.length === 16 ? tail : null;
}

const v4 = (b: number[], at: number) => b.slice(at, at + 4).join(".");

/** True when `address` (an IP literal) must not receive webhooks. Non-IP input counts as blocked. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  if (net.isIPv4(bare)) return blockedV4.check(bare, "ipv4");
  const bytes = ipv6Bytes(bare);
  if (!bytes) return true;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((x) => x === 0);
  // ::/96 (unspecified, loopback ::1, IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped)
  if (zeros(0, 10) && ((bytes[10] === 0 && bytes[11] === 0) || (bytes[10] === 0xff && bytes[11] === 0xff))) {
    return blockedV4.check(v4(bytes, 12), "ipv4");
  }
  // NAT64 64:ff9b::/96 embeds an IPv4 address.
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) {
    return blockedV4.check(v4(bytes, 12), "ipv4");
  }
  // 6to4 2002::/16 embeds an IPv4 address in bits 16-48.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return blockedV4.check(v4(bytes, 2), "ipv4");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return blockedV6.check(groups.join(":"), "ipv6");
}

export const privateTargetsAllowed = () => config().ALLOW_PRIVATE_WEBHOOK_TARGETS;

/**
 * Create/update-time check of a URL's host: refuses literal private IPs and
 * `localhost` names. Returns an error message, or null when acceptable.
 * (Names are resolved and checked again at every delivery.)
 */
export function literalHostProblem(url: URL): string | null {
  if (privateTargetsAllowed()) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "Webhooks cannot target localhost";
  const bare = host.replace(/^\[|\]$/g, "");
  if (net.isIP(bare) && isBlockedAddress(bare)) return "Webhooks cannot target private, loopback or reserved addresses";
  return null;
}

export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefusedError";
  }
}

/**
 * A `lookup` for http.request: resolves every address of the host, refuses
 * the connection when any is blocked, and connects to the first one checked
 * (so a second DNS answer cannot swap in a private address).
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as dns.LookupAddress[];
    if (!list.length) return callback(new Error(`${hostname} has no address`), "", 0);
    if (!privateTargetsAllowed()) {
      const bad = list.find((a) => isBlockedAddress(a.address));
      if (bad) {
        return callback(new TargetRefusedError(`${hostname} resolves to a private or reserved address (${bad.address})`), "", 0);
      }
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
