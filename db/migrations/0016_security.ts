import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";

// Security review: invitation links an admin can copy, OAuth states
// bound to the browser session that started them, session ids stored hashed,
// sign-in throttling per (address, source), one verified owner per custom domain.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  // The invitation's raw token, AES-256-GCM under ENCRYPTION_KEY, so an admin can copy the link.
  await sql`ALTER TABLE invitations ADD COLUMN tokenEncrypted TEXT`.execute(db);
  // The (hashed) session that started an OAuth connect; the callback must come from it.
  await sql`ALTER TABLE oauthStates ADD COLUMN sessionId TEXT`.execute(db);

  // Sessions are keyed by sha256(cookie value) from now on: re-key the live ones.
  const rows = await sql<{ id: string }>`SELECT id FROM sessions`.execute(db);
  for (const { id } of rows.rows) {
    const hashed = crypto.createHash("sha256").update(id).digest("hex");
    await sql`UPDATE sessions SET id = ${hashed} WHERE id = ${id}`.execute(db);
  }

  // Failed sign-ins per (address, source) and per address (source '*'), for
  // known and unknown addresses alike.
  await sql`CREATE TABLE signInThrottles (
    email TEXT NOT NULL COLLATE NOCASE,
    source TEXT NOT NULL,
    failures INTEGER NOT NULL,
    firstFailureAt TEXT NOT NULL,
    lockedUntil TEXT,
    PRIMARY KEY (email, source)
  ) STRICT, WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX signInThrottles_first ON signInThrottles(firstFailureAt)`.execute(db);

  // A custom domain may be verified by one organization only: where two are
  // verified today, the earliest keeps it and the others go back to unverified.
  await sql`UPDATE organizations
    SET settings = json_set(settings, '$.customDomain.verified', json('false'), '$.customDomain.verifiedAt', NULL)
    WHERE json_extract(settings, '$.customDomain.verified') = 1
      AND EXISTS (
        SELECT 1 FROM organizations o2
        WHERE o2.id != organizations.id
          AND json_extract(o2.settings, '$.customDomain.verified') = 1
          AND json_extract(o2.settings, '$.customDomain.domain') = json_extract(organizations.settings, '$.customDomain.domain')
          AND (json_extract(o2.settings, '$.customDomain.verifiedAt') < json_extract(organizations.settings, '$.customDomain.verifiedAt')
            OR (json_extract(o2.settings, '$.customDomain.verifiedAt') = json_extract(organizations.settings, '$.customDomain.verifiedAt') AND o2.id < organizations.id))
      )`.execute(db);
  await sql`CREATE UNIQUE INDEX organizations_verified_domain
    ON organizations(json_extract(settings, '$.customDomain.domain'))
    WHERE json_extract(settings, '$.customDomain.verified') = 1`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP INDEX IF EXISTS organizations_verified_domain`.execute(db);
  await sql`DROP TABLE IF EXISTS signInThrottles`.execute(db);
  // Hashed session ids cannot be turned back: everyone signs in again.
  await sql`DELETE FROM sessions`.execute(db);
  await sql`ALTER TABLE oauthStates DROP COLUMN sessionId`.execute(db);
  await sql`ALTER TABLE invitations DROP COLUMN tokenEncrypted`.execute(db);
}
