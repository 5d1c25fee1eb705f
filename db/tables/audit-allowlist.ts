/** Audit log additions and the IP allowlist (issue 10). */

// Table interfaces of this area; each is listed in AuditAllowlistTables (merged into Database in ../schema.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuditAllowlistTables {}
