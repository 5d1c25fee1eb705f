/** Audit log additions and the IP allowlist. */

export interface IpAllowlistEntriesTable {
  id: string;
  orgId: string;
  /** Normalised: `address/prefix` (IPv4-mapped IPv6 stored as IPv4). */
  cidr: string;
  label: string;
  createdById: string | null;
  createdAt: string;
}

// Table interfaces of this area; each is listed in AuditAllowlistTables (merged into Database in ../schema.ts).
export interface AuditAllowlistTables {
  ipAllowlistEntries: IpAllowlistEntriesTable;
}
