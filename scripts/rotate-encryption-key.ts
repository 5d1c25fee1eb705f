/**
 * Operator tool: rotate ENCRYPTION_KEY, re-encrypting every stored secret in
 * one transaction (app/ops/rotate-key.server.ts).
 *   npm run secrets:rotate            (refuses if a value does not decrypt)
 *   npm run secrets:rotate -- --force (rotates the rest, leaves those as they are)
 * Stop the app first (it keeps the old key in memory). With the key in
 * DATA_DIR/secrets.json the new key is written there; with ENCRYPTION_KEY in
 * the environment the new key is printed, to set before the app restarts.
 */
import fs from "node:fs";
import path from "node:path";
import { config } from "~/config.server";
import { closeDb, db } from "~/db.server";
import { generateKey, RotationRefused, rotateEncryptionKey } from "~/ops/rotate-key.server";

const force = process.argv.includes("--force");
const cfg = config();
const fromEnv = Boolean(process.env.ENCRYPTION_KEY?.trim());
const secretsFile = path.join(cfg.DATA_DIR, "secrets.json");
const pendingFile = `${secretsFile}.rotating`;
const newKey = generateKey();

try {
  if (!fromEnv) {
    // The new key is on disk before the data needs it: a crash after the commit leaves it in secrets.json.rotating.
    const stored = JSON.parse(fs.readFileSync(secretsFile, "utf8"));
    fs.writeFileSync(pendingFile, JSON.stringify({ ...stored, encryptionKey: newKey }, null, 2), { mode: 0o600 });
  }
  const result = await rotateEncryptionKey(db, {
    currentKey: cfg.ENCRYPTION_KEY,
    newKey,
    force,
    onTable: (table, n) => console.log(`  ${table}: ${n} value(s) re-encrypted`),
  });
  if (!fromEnv) fs.renameSync(pendingFile, secretsFile);
  for (const s of result.skipped) console.warn(`  left as is (did not decrypt): ${s.table}.${s.column} (${s.key})`);
  console.log("Every stored secret is now encrypted with the new key.");
  if (fromEnv) {
    console.log(`ENCRYPTION_KEY comes from the environment: set it to the new key before starting the app:\n  ENCRYPTION_KEY=${newKey}`);
  } else {
    console.log(`The new key is in ${secretsFile}.`);
  }
  console.log("Backups taken before now still need the old key.");
} catch (error) {
  if (!fromEnv) fs.rmSync(pendingFile, { force: true });
  console.error(error instanceof RotationRefused || error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDb();
}
