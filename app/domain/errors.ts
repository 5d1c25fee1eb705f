/**
 * The one error type domain code throws. `status` and `code` follow
 * docs/api.md ("Envelopes"); the API boundary turns it into
 * `{error, code, details?}` and the UI into a message.
 */
export type ErrorCode =
  | "VALIDATION_ERROR"
  | "INVALID_JSON"
  | "WEAK_PASSWORD"
  | "TOO_MANY_PROJECTS"
  | "INVALID_STATUS"
  | "UNAUTHORIZED"
  | "INVALID_CREDENTIALS"
  | "INVALID_TOKEN"
  | "SHARE_PASSWORD_REQUIRED"
  | "FORBIDDEN"
  | "PLAN_UPGRADE_REQUIRED"
  | "FEATURE_DISABLED"
  | "IP_NOT_ALLOWED"
  | "CSRF_FAILED"
  | "LIMIT_REACHED"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "CONFLICT"
  | "EMAIL_TAKEN"
  | "INTEGRATION_NOT_CONNECTED"
  | "APPROVAL_REQUIRED"
  | "OWNERSHIP_TRANSFER_REQUIRED"
  | "SHARE_EXPIRED"
  | "TOKEN_EXPIRED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "ACCOUNT_LOCKED"
  | "RATE_LIMITED"
  | "PROVIDER_ERROR"
  | "STORAGE_FULL"
  | "INTERNAL_ERROR";

/** The HTTP status of each code (docs/api.md, "Envelopes"). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  WEAK_PASSWORD: 400,
  TOO_MANY_PROJECTS: 400,
  INVALID_STATUS: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_TOKEN: 401,
  SHARE_PASSWORD_REQUIRED: 401,
  FORBIDDEN: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  FEATURE_DISABLED: 403,
  IP_NOT_ALLOWED: 403,
  CSRF_FAILED: 403,
  LIMIT_REACHED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  INTEGRATION_NOT_CONNECTED: 409,
  APPROVAL_REQUIRED: 409,
  OWNERSHIP_TRANSFER_REQUIRED: 409,
  SHARE_EXPIRED: 410,
  TOKEN_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ACCOUNT_LOCKED: 423,
  RATE_LIMITED: 429,
  PROVIDER_ERROR: 502,
  /** The disk is full: nothing was saved (app/ops/storage-errors.server.ts). */
  STORAGE_FULL: 503,
  INTERNAL_ERROR: 500,
};

export type ErrorDetail = { path: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  /** Extra top-level fields for the envelope, e.g. `{metric}` or `{retryAfter}`. */
  readonly extra?: Record<string, unknown>;
  /** Headers the boundary should add (Retry-After ...). */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    status: number,
    message: string,
    options: {
      details?: ErrorDetail[];
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export const notFound = (what = "Resource") => new AppError("NOT_FOUND", 404, `${what} not found`);
export const forbidden = (message = "You do not have permission to do this") => new AppError("FORBIDDEN", 403, message);
export const unauthorized = (message = "Sign in or send a valid API key") => new AppError("UNAUTHORIZED", 401, message);
export const validationError = (path: string, message: string) => new AppError("VALIDATION_ERROR", 400, message, { details: [{ path, message }] });

/**
 * Thrown by a read that must write (an OAuth token to renew before a call) on
 * a LiteFS replica, where the database is read-only: /api answers with a
 * replay on the primary (fly-replay); pages fall back to what they can show
 * without the write.
 */
export class PrimaryRequired extends Error {
  constructor(what: string) {
    super(`${what} must be done on the primary`);
    this.name = "PrimaryRequired";
  }
}
