import { type Kysely, sql } from "kysely";

// Billing: subscriptions, checkout sessions, billing history.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

const up_statements = [
  `CREATE TABLE billingCheckoutSessions (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    planId TEXT NOT NULL CHECK (planId IN ('free', 'starter', 'pro', 'enterprise')),
    interval TEXT NOT NULL CHECK (interval IN ('monthly', 'annual')),
    provider TEXT NOT NULL CHECK (provider IN ('local', 'stripe')),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'cancelled', 'expired')),
    externalId TEXT,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    expiresAt TEXT NOT NULL,
    completedAt TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX billingCheckoutSessions_org ON billingCheckoutSessions(orgId, createdAt)`,
  `CREATE TABLE billingHistory (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    fromPlan TEXT NOT NULL,
    toPlan TEXT NOT NULL,
    interval TEXT,
    provider TEXT NOT NULL,
    amountCents INTEGER,
    currency TEXT NOT NULL DEFAULT 'usd',
    source TEXT NOT NULL,
    actorId TEXT REFERENCES users(id) ON DELETE SET NULL,
    reference TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX billingHistory_org ON billingHistory(orgId, createdAt)`,
  `CREATE TABLE billingCustomers (
    orgId TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    customerId TEXT NOT NULL,
    subscriptionId TEXT,
    status TEXT,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX billingCustomers_customer ON billingCustomers(customerId)`,
  `CREATE TABLE billingWebhookEvents (
    id TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    type TEXT NOT NULL,
    processedAt TEXT NOT NULL
  ) STRICT`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const table of ["billingWebhookEvents", "billingCustomers", "billingHistory", "billingCheckoutSessions"]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
