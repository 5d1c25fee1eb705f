import { sqlite } from "~/db.server";

/**
 * A full disk without filling the real one: SQLite answers SQLITE_FULL once
 * the database cannot grow, and `PRAGMA max_page_count` at the current size
 * makes it so.
 */
export function fillTheDisk() {
  const conn = sqlite();
  const pages = conn.pragma("page_count", { simple: true }) as number;
  conn.pragma(`max_page_count = ${pages}`);
}

export function freeTheDisk() {
  sqlite().pragma("max_page_count = 4294967294");
}
