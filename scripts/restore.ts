/**
 * Restores a backup made by `npm run db:backup` into DATA_DIR. STOP THE APP FIRST:
 * while a server runs on DATA_DIR (its DATA_DIR/server.pid names a live process)
 * it refuses and changes nothing; `--force` skips that check.
 *   npm run db:restore -- /path/to/app-<timestamp>.db [--force]
 * The backup is integrity-checked; the current app.db (and secrets.json, when
 * the backup has one) are kept as *.pre-restore-<timestamp>.
 * docs/operations.md, "Restore drill".
 */
import path from "node:path";
import { restoreDatabase } from "../app/ops/backup.server";

const args = process.argv.slice(2);
const force = args.includes("--force");
const file = args.find((a) => a !== "--force");
if (!file) {
  console.error("Usage: npm run db:restore -- <backup file>   (stop the app first)");
  process.exit(1);
}
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");

try {
  const result = restoreDatabase(file, dataDir, { force });
  console.log(`Restored ${path.resolve(file)} to ${result.database} (integrity ok)`);
  console.log(result.secretsRestored ? "secrets.json restored from the backup" : "No secrets file beside the backup: secrets.json left as it was");
  for (const p of result.previous) console.log(`Previous file kept: ${p}`);
  console.log("Start the app; it applies any newer migrations at start.");
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
