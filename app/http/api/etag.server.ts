import { validationError } from "~/domain/errors";

/**
 * Entity tags for lost-update protection. A project's ETag is its revision
 * (`"r7"`), a PRD's is its current version id. Clients send the value back in
 * If-Match; a stale one is 409 CONFLICT.
 */
export const projectEtag = (revision: number) => `"r${revision}"`;
export const prdEtag = (versionId: string | null) => (versionId ? `"${versionId}"` : undefined);

function ifMatchValue(request: Request) {
  const raw = request.headers.get("If-Match");
  if (!raw || raw.trim() === "*") return undefined;
  return raw.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
}

export function ifMatchRevision(request: Request): number | undefined {
  const value = ifMatchValue(request);
  if (value === undefined) return undefined;
  const m = /^r?(\d+)$/.exec(value);
  if (!m) throw validationError("If-Match", 'If-Match must be the project ETag, e.g. "r3"');
  return Number(m[1]);
}

export function ifMatchVersion(request: Request): string | undefined {
  return ifMatchValue(request);
}
