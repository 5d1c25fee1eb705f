/**
 * A counter server.ts bumps as each request arrives (app/http/server/serve.server.ts).
 * dataStamp (app/db.server.ts) reuses the database's data_version it read
 * while no new request has arrived and the event loop has not moved on: any
 * commit a client saw before sending a request happened before that request
 * arrived, so a version read after the arrival reflects it.
 */
export const requestEpoch = { n: 0 };

export function requestArrived() {
  requestEpoch.n++;
}
