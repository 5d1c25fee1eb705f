/** Incoming webhooks, feature flags, NPS answers (issue 9). */

// Table interfaces of this area; each is listed in IncomingFlagsNpsTables (merged into Database in ../schema.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface IncomingFlagsNpsTables {}
