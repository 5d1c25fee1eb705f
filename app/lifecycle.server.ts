import { closeDb, db, isPrimary } from "./db.server";
import "./jobs/handlers.server";
import { startWorker, stopWorker } from "./jobs/worker.server";
import { startScheduler, stopScheduler } from "./jobs/scheduler.server";
import { migrateToLatest } from "#db/client";
import { ensureSystemTemplates } from "./domain/templates/system.server";

/**
 * Start-up and shutdown of everything that is not a request: migrations and
 * the job worker (primary only). server.ts calls these through the build's
 * entry module so there is one instance of each module.
 */
export async function startBackground(options: { worker?: boolean } = {}) {
  if (isPrimary()) {
    const applied = await migrateToLatest(db);
    if (applied.length) console.log(`[db] applied migrations: ${applied.join(", ")}`);
    const seeded = await ensureSystemTemplates();
    if (seeded.length) console.log(`[db] added ${seeded.length} built-in templates`);
  }
  if (options.worker !== false) {
    startWorker();
    startScheduler();
  }
}

export async function stopBackground() {
  stopScheduler();
  await stopWorker();
  await closeDb();
}
