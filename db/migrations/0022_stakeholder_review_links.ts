import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql, type Kysely } from "kysely";

// Personal stakeholder review links (docs/collaboration.md, "Personal review
// links"). Every review request carries its own secret: SHA-256 for look-up
// (unique) and AES-256-GCM so the team can copy the link again (the share
// link's scheme). `reviewLinkSentAt`/`reviewLinkSentTo`: when and to which
// address the link was last mailed. `resolvedVia`: which link the latest
// decision came through; `resolvedByEmail`: the address the link had been
// mailed to when the decision was made through it. `personalLinkOnly`: the
// share link may not decide this review.
// Existing review requests get a link here; decisions already made came
// through the share link, the only way there was.
// Frozen: never edit after it has landed. Add a new numbered migration instead.
// (Edited once, to import no application code: the encryption it used, and the
// way the key was found when it landed, are copied below, so a later change to
// the app cannot change what this migration writes.)

/** ENCRYPTION_KEY, else the key generated into DATA_DIR/secrets.json (app/config.server.ts when this landed). */
function encryptionKey(): string {
  const fromEnv = process.env.ENCRYPTION_KEY;
  if (fromEnv && /^[0-9a-f]{64}$/i.test(fromEnv)) return fromEnv;
  const file = path.join(path.resolve(process.env.DATA_DIR || "./data"), "secrets.json");
  const stored = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { encryptionKey?: string }) : {};
  if (!stored.encryptionKey) throw new Error(`Migration 0022 needs the encryption key: set ENCRYPTION_KEY or keep ${file}`);
  return stored.encryptionKey;
}

/** AES-256-GCM, base64url(iv | tag | ciphertext): app/utils/crypto.server.ts's encrypt when this landed. */
function encrypt(plaintext: string, hexKey: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", Buffer.from(hexKey, "hex"), iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64url");
}

export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE stakeholderViews ADD COLUMN reviewTokenHash TEXT`.execute(db);
  await sql`ALTER TABLE stakeholderViews ADD COLUMN reviewTokenEncrypted TEXT`.execute(db);
  await sql`ALTER TABLE stakeholderViews ADD COLUMN reviewLinkSentAt TEXT`.execute(db);
  await sql`ALTER TABLE stakeholderViews ADD COLUMN reviewLinkSentTo TEXT`.execute(db);
  await sql`ALTER TABLE stakeholderViews ADD COLUMN personalLinkOnly INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE stakeholderViews ADD COLUMN resolvedVia TEXT CHECK (resolvedVia IN ('personal_link','share_link'))`.execute(db);
  await sql`ALTER TABLE stakeholderViews ADD COLUMN resolvedByEmail TEXT`.execute(db);
  await sql`CREATE UNIQUE INDEX stakeholderViews_reviewToken ON stakeholderViews(reviewTokenHash) WHERE reviewTokenHash IS NOT NULL`.execute(db);

  const { rows } = await sql<{ id: string }>`SELECT id FROM stakeholderViews WHERE reviewStatus IS NOT NULL`.execute(db);
  const key = rows.length ? encryptionKey() : "";
  for (const { id } of rows) {
    const token = crypto.randomBytes(32).toString("base64url");
    const hash = crypto.createHash("sha256").update(token).digest("hex");
    await sql`UPDATE stakeholderViews SET reviewTokenHash = ${hash}, reviewTokenEncrypted = ${encrypt(token, key)} WHERE id = ${id}`.execute(db);
  }
  await sql`UPDATE stakeholderViews SET resolvedVia = 'share_link' WHERE resolvedAt IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP INDEX IF EXISTS stakeholderViews_reviewToken`.execute(db);
  for (const column of [
    "resolvedByEmail",
    "resolvedVia",
    "personalLinkOnly",
    "reviewLinkSentTo",
    "reviewLinkSentAt",
    "reviewTokenEncrypted",
    "reviewTokenHash",
  ]) {
    await sql`ALTER TABLE stakeholderViews DROP COLUMN ${sql.ref(column)}`.execute(db);
  }
}
