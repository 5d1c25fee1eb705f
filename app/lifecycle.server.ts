import { config } from "./config.server";
import { closeDb, db, isPrimary } from "./db.server";
import { claimDataDir, releaseDataDir } from "./ops/data-dir-claim.server";
import { registerBackgroundWork } from "./jobs/handlers.server";
import { startWorker, stopWorker } from "./jobs/worker.server";
import { startScheduler, stopScheduler } from "./jobs/scheduler.server";
import { migrateToLatest } from "#db/client";
import { ensureSystemTemplates } from "./domain/templates/system.server";
import { onRoleChange, startRoleWatch, stopRoleWatch } from "./ops/role-watch.server";
import { stopRenderWorkers } from "./domain/exports/render-pool.server";
import { dropLiveDocs, stopLive } from "./domain/live/live.server";

/**
 * Start-up and shutdown of everything that is not a request: migrations, the
 * job worker, the scheduler and the live documents. server.ts calls these through the build's
 * entry module so there is one instance of each module.
 *
 * With LiteFS the primary can move while the process runs: the worker checks
 * the role before each job it claims, and the role watcher starts the
 * scheduler on the machine that becomes primary and stops it on the one that
 * loses the lease (docs/operations.md, "Fly.io + LiteFS").
 */

let unsubscribe: (() => void) | undefined;

export async function startBackground(options: { worker?: boolean; roleCheckMs?: number; workerPollMs?: number } = {}) {
  // DATA_DIR/server.pid: `npm run db:restore` refuses while this process runs (app/ops/data-dir-claim.server.ts).
  claimDataDir(config().DATA_DIR);
  registerBackgroundWork();
  const primary = isPrimary();
  if (primary) {
    const applied = await migrateToLatest(db);
    if (applied.length) console.log(`[db] applied migrations: ${applied.join(", ")}`);
    const seeded = await ensureSystemTemplates();
    if (seeded.length) console.log(`[db] added ${seeded.length} built-in templates`);
  }
  if (options.worker === false) return;
  startWorker(options.workerPollMs);
  void startScheduler();
  unsubscribe ??= onRoleChange(async (role) => {
    if (role === "primary") await startScheduler();
    else {
      stopScheduler();
      // Live documents live in the primary's memory: their streams end here, and the clients reconnect to the new primary.
      dropLiveDocs();
    }
  });
  startRoleWatch({ intervalMs: options.roleCheckMs, initial: primary ? "primary" : "replica" });
}

export async function stopBackground() {
  // Unsaved live edits become a PRD version while the database is still open (a no-op if server.ts did it already).
  await stopLive();
  await stopRoleWatch();
  unsubscribe?.();
  unsubscribe = undefined;
  stopScheduler();
  await stopWorker();
  // Export renders in flight end with the process anyway; stopping the threads lets it exit at once.
  await stopRenderWorkers();
  await closeDb();
  releaseDataDir(config().DATA_DIR);
}
