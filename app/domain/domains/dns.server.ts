import { Resolver } from "node:dns/promises";
import { config } from "~/config.server";

/**
 * A resolver using DNS_SERVERS (comma list of ip[:port]) when configured,
 * the system's servers otherwise. Short timeouts: verification is interactive.
 */
export function dnsResolver() {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  const servers = config().DNS_SERVERS;
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

/** The CNAME targets of `name` (lower-case, no trailing dot); [] when there are none or the lookup fails. */
export async function lookupCname(name: string): Promise<string[]> {
  try {
    return (await dnsResolver().resolveCname(name)).map((v) => v.toLowerCase().replace(/\.$/, ""));
  } catch {
    // No record, NXDOMAIN, timeout or refused: all mean "not set up yet" to the admin.
    return [];
  }
}

/** The TXT strings of `name` (each record's chunks joined); [] when none. */
export async function lookupTxt(name: string): Promise<string[]> {
  try {
    return (await dnsResolver().resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch {
    return [];
  }
}
