/**
 * A counter server.ts bumps as each request arrives (app/http/serve.server.ts).
 * dataStamp (app/db.server.ts) reuses the database's data_version it read
 * while no new request has arrived and the event loop has not moved on: any
 * commit a client saw before sending a request happened before that request
 * arrived, so a version read after the arrival reflects it.
 *
 * Shared through globalThis: server.ts (bundled on its own) and the Remix
 * build each load a copy of this module.
 */
const KEY = Symbol.for("prd-studio.request-epoch");
const shared = globalThis as { [KEY]?: { n: number } };
export const requestEpoch = (shared[KEY] ??= { n: 0 });

export function requestArrived() {
  requestEpoch.n++;
}
