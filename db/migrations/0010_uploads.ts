import { type Kysely, sql } from "kysely";

// Uploaded images and documents, metered usage.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

const up_statements = [
  `CREATE TABLE uploadedImages (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    blobId TEXT NOT NULL REFERENCES blobs(id),
    contentType TEXT NOT NULL CHECK (contentType IN ('image/webp','image/png')),
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    size INTEGER NOT NULL,
    originalName TEXT NOT NULL DEFAULT '',
    uploadedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX uploadedImages_project ON uploadedImages(projectId)`,
  // Each image owns its blob: the bytes go with the image (and so with its project).
  `CREATE TRIGGER uploadedImages_delete_blob AFTER DELETE ON uploadedImages
   BEGIN DELETE FROM blobs WHERE id = OLD.blobId; END`,
  `CREATE TABLE uploadUsage (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    userId TEXT REFERENCES users(id) ON DELETE SET NULL,
    metric TEXT NOT NULL CHECK (metric IN ('document_uploads','transcription_minutes')),
    amount INTEGER NOT NULL CHECK (amount >= 0),
    label TEXT NOT NULL DEFAULT '',
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX uploadUsage_org_metric ON uploadUsage(orgId, metric, createdAt)`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  // Deleting the images first lets the trigger remove their blobs.
  await sql.raw("DELETE FROM uploadedImages").execute(db);
  await sql.raw("DROP TRIGGER IF EXISTS uploadedImages_delete_blob").execute(db);
  for (const table of ["uploadUsage", "uploadedImages"]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
