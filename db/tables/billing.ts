/** Billing: subscriptions, checkout sessions, billing history (issue 10). */

// Table interfaces of this area; each is listed in BillingTables (merged into Database in ../schema.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BillingTables {}
