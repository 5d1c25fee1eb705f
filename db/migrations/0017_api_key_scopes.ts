import { sql, type Kysely } from "kysely";

// API key scopes (security finding "API keys cannot be limited"): each key
// holds a JSON list of `read`, `write`, `admin` (app/domain/api-keys/scopes.ts).
// Every existing key gets all three, i.e. exactly the access it had before.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE apiKeys ADD COLUMN scopes TEXT NOT NULL DEFAULT '["read","write","admin"]'
    CHECK (json_valid(scopes) AND json_type(scopes) = 'array')`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE apiKeys DROP COLUMN scopes`.execute(db);
}
