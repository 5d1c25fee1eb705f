import { AppError } from "~/domain/errors";
import { logger } from "~/utils/log.server";

/**
 * A full disk (issue 12). SQLite reports SQLITE_FULL when it cannot grow the
 * database or its WAL, and rolls the statement's transaction back, so nothing
 * half-written remains; file writes fail with ENOSPC. Both become 503
 * STORAGE_FULL with Retry-After, and the write can simply be sent again once
 * space returns (the connection stays usable).
 */

export const STORAGE_FULL_MESSAGE = "The server's disk is full; nothing was saved. Try again later.";

export function isStorageFull(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT";
}

export function storageFullError() {
  return new AppError("STORAGE_FULL", 503, STORAGE_FULL_MESSAGE, { headers: { "Retry-After": "60" } });
}

/** The STORAGE_FULL AppError for a disk-full failure (logged once per failure, with the request's id); anything else unchanged. */
export function asStorageError(error: unknown, requestId?: string): unknown {
  if (!isStorageFull(error)) return error;
  logger.error("[storage] write refused: disk full", { requestId, error: (error as Error).message });
  return storageFullError();
}
