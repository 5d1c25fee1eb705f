/** Outgoing webhooks and their delivery log (issue 9). */

// Table interfaces of this area; each is listed in WebhooksTables (merged into Database in ../schema.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WebhooksTables {}
