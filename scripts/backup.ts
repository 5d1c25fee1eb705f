/**
 * Online backup of DATA_DIR/app.db (safe while the app runs and writes):
 *   npm run db:backup                 → DATA_DIR/backups/app-<timestamp>.db
 *   npm run db:backup -- /mnt/backups → /mnt/backups/app-<timestamp>.db
 * Also copies secrets.json beside it (app-<timestamp>.secrets.json) and keeps
 * the newest BACKUP_KEEP (default 7) backups in that directory.
 * docs/operations.md, "Durability".
 */
import path from "node:path";
import { backupDatabase, backupStamp, pruneBackups } from "../app/ops/backup.server";

const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const destDir = path.resolve(process.argv[2] ?? path.join(dataDir, "backups"));
const keep = Number(process.env.BACKUP_KEEP ?? 7);
if (!Number.isInteger(keep) || keep < 1) {
  console.error("BACKUP_KEEP must be a whole number of at least 1");
  process.exit(1);
}

try {
  const result = await backupDatabase(path.join(dataDir, "app.db"), path.join(destDir, `app-${backupStamp()}.db`));
  console.log(`Backup written: ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${result.pages} pages, ${result.ms} ms, integrity ok)`);
  if (result.secretsFile) console.log(`Secrets copied: ${result.secretsFile} (keep it as private as the database)`);
  else console.log("No secrets.json in DATA_DIR: SESSION_SECRET and ENCRYPTION_KEY come from the environment; keep them safe too.");
  const removed = pruneBackups(destDir, keep);
  if (removed.length) console.log(`Removed ${removed.length} old backup(s), keeping the newest ${keep}`);
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
