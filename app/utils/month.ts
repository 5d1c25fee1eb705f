/** The first instant of the UTC calendar month of `now`, as ISO text: monthly quotas count from it. */
export function monthStart(now = new Date()) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}
