import type { ColumnType } from "kysely";

/** Accounts, organizations, sessions, keys, audit, mail, jobs and events. Timestamps are ISO 8601 strings. */

/** Table types in one place. Timestamps are ISO 8601 strings; JSON columns are text. */

export type Role = "owner" | "admin" | "member" | "viewer";

export type PlanId = "free" | "starter" | "pro" | "enterprise";

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerifiedAt: string | null;
  timezone: string;
  /** Unused since migration 0016: sign-in failures are counted per (address, source) in signInThrottles. */
  failedSignInCount: number;
  firstFailedSignInAt: string | null;
  lockedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  plan: PlanId;
  settings: string;
  createdAt: string;
  updatedAt: string;
}

export interface MembershipsTable {
  id: string;
  orgId: string;
  userId: string;
  role: Role;
  createdAt: string;
}

export interface SessionsTable {
  id: string;
  userId: string;
  orgId: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** Failed sign-ins per (address, source); source '*' counts every source of the address. */
export interface SignInThrottlesTable {
  email: string;
  source: string;
  failures: number;
  firstFailureAt: string;
  lockedUntil: string | null;
}

export type TokenPurpose = "password_reset" | "email_verification";

export interface OneTimeTokensTable {
  id: string;
  userId: string;
  purpose: TokenPurpose;
  tokenHash: string;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

export interface InvitationsTable {
  id: string;
  orgId: string;
  email: string;
  role: Exclude<Role, "owner">;
  message: string | null;
  tokenHash: string;
  /** The raw token under ENCRYPTION_KEY, so admins can copy the link (null before migration 0016). */
  tokenEncrypted: string | null;
  invitedById: string | null;
  status: "pending" | "accepted" | "cancelled";
  expiresAt: string;
  acceptedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ApiKeysTable {
  id: string;
  orgId: string;
  userId: string;
  name: string;
  prefix: string;
  keyHash: string;
  rateLimit: number | null;
  /** JSON array of `read`, `write`, `admin` (migration 0017; existing keys: all three). */
  scopes: ColumnType<string, string | undefined, string>;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export type Severity = "info" | "warning" | "critical";

export interface AuditLogsTable {
  id: string;
  orgId: string | null;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  category: string;
  severity: Severity;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  metadata: string;
  createdAt: string;
}

export type EmailStatus = "queued" | "sent" | "outbox" | "failed";

export interface EmailsTable {
  id: string;
  orgId: string | null;
  toAddress: string;
  subject: string;
  text: string;
  html: string | null;
  kind: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
  createdAt: string;
  /** JSON [{filename, contentType, content (base64)}] or null (migration 0015). */
  attachments?: string | null;
}

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobsTable {
  id: string;
  type: string;
  /** The lane that runs it (app/jobs/lanes.ts; migration 0030), `other` unless given. */
  lane: ColumnType<string, string | undefined, string>;
  payload: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  lockedAt: string | null;
  /** The process holding the lease while running (app/jobs/queue.server.ts WORKER_ID; migration 0030). */
  lockedBy: ColumnType<string | null, string | null | undefined, string | null>;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EventsTable {
  id: string;
  orgId: string | null;
  name: string;
  data: string;
  actorId: string | null;
  createdAt: string;
  processedAt: string | null;
  /** Failed dispatches so far; the next one is due at `runAt`. */
  attempts: number;
  lastError: string | null;
  /** When the event is (next) due for dispatch. */
  runAt: string | null;
  /** Set when dispatch was given up after the last attempt. */
  failedAt: string | null;
}
