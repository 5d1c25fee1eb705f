import type { Generated, Insertable, Selectable, Updateable } from "kysely";

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
}

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobsTable {
  id: string;
  type: string;
  payload: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  lockedAt: string | null;
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
}

export interface TemplatesTable {
  id: string;
  orgId: string | null;
  userId: string | null;
  name: string;
  description: string;
  category: string;
  templateType: "personal" | "organization" | "system" | "marketplace";
  visibility: "personal" | "organization" | "public";
  systemPrompt: string;
  initialQuestion: string;
  sections: string;
  tags: string;
  features: string;
  isActive: number;
  isFeatured: number;
  pricingTier: string;
  usageCount: number;
  /** 1 on copies of marketplace templates: the prompt is "[Protected]" for non-superadmins. */
  promptProtected: number;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectsTable {
  seq: Generated<number>;
  id: string;
  orgId: string;
  name: string;
  description: string;
  status: string;
  statusRank: number;
  priority: string | null;
  priorityRank: number;
  templateId: string | null;
  assignedToId: string | null;
  createdById: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectStatusHistoryTable {
  id: string;
  projectId: string;
  fromStatus: string | null;
  toStatus: string;
  changedById: string | null;
  createdAt: string;
}

export interface ProjectActivityTable {
  id: string;
  projectId: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  summary: string;
  data: string;
  createdAt: string;
}

export interface PrdsTable {
  projectId: string;
  content: string;
  style: string | null;
  currentVersionId: string | null;
  updatedById: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PrdVersionsTable {
  id: string;
  projectId: string;
  number: number;
  content: string;
  style: string | null;
  label: string | null;
  source: string;
  createdById: string | null;
  createdAt: string;
}

export interface BlobsTable {
  id: string;
  data: Buffer;
  size: number;
  sha256: string;
  createdAt: string;
}

export interface ProjectFoldersTable {
  id: string;
  projectId: string;
  parentId: string | null;
  name: string;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectFilesTable {
  id: string;
  projectId: string;
  folderId: string | null;
  blobId: string;
  filename: string;
  contentType: string;
  size: number;
  uploadedById: string | null;
  createdAt: string;
}

export interface CommentsTable {
  id: string;
  projectId: string;
  userId: string | null;
  parentId: string | null;
  content: string;
  section: string | null;
  blockId: string | null;
  mentions: string;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  deletedAt: string | null;
}

export interface ProjectSharesTable {
  projectId: string;
  tokenHash: string;
  tokenEncrypted: string;
  passwordHash: string | null;
  expiresAt: string | null;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
}

export type CollaboratorRole = "editor" | "commenter" | "viewer";

export interface ProjectCollaboratorsTable {
  id: string;
  projectId: string;
  userId: string;
  role: CollaboratorRole;
  addedById: string | null;
  createdAt: string;
}

export interface StakeholderViewsTable {
  id: string;
  projectId: string;
  name: string;
  stakeholderName: string | null;
  stakeholderEmail: string | null;
  audience: string | null;
  sections: string;
  notes: string | null;
  kind: string;
  payload: string;
  reviewStatus: "pending" | "approved" | "rejected" | null;
  feedback: string | null;
  resolvedAt: string | null;
  resolvedByName: string | null;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectLinksTable {
  id: string;
  projectId: string;
  title: string;
  url: string | null;
  targetProjectId: string | null;
  linkType: string;
  createdById: string | null;
  createdAt: string;
}

export interface ProjectSearchTable {
  rowid: number;
  name: string;
  description: string;
  content: string;
}

export interface TemplateVersionsTable {
  id: string;
  templateId: string;
  number: number;
  snapshot: string;
  note: string | null;
  createdById: string | null;
  createdAt: string;
}

export type SubmissionStatus = "pending" | "approved" | "rejected";

export interface TemplateSubmissionsTable {
  id: string;
  templateId: string | null;
  templateName: string;
  orgId: string | null;
  submitterId: string | null;
  notes: string | null;
  status: SubmissionStatus;
  reason: string | null;
  reviewedById: string | null;
  reviewedAt: string | null;
  marketplaceTemplateId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  oneTimeTokens: OneTimeTokensTable;
  invitations: InvitationsTable;
  apiKeys: ApiKeysTable;
  auditLogs: AuditLogsTable;
  emails: EmailsTable;
  jobs: JobsTable;
  events: EventsTable;
  templates: TemplatesTable;
  projects: ProjectsTable;
  projectStatusHistory: ProjectStatusHistoryTable;
  projectActivity: ProjectActivityTable;
  prds: PrdsTable;
  prdVersions: PrdVersionsTable;
  blobs: BlobsTable;
  projectFolders: ProjectFoldersTable;
  projectFiles: ProjectFilesTable;
  comments: CommentsTable;
  projectShares: ProjectSharesTable;
  projectCollaborators: ProjectCollaboratorsTable;
  stakeholderViews: StakeholderViewsTable;
  projectLinks: ProjectLinksTable;
  projectSearch: ProjectSearchTable;
  templateVersions: TemplateVersionsTable;
  templateSubmissions: TemplateSubmissionsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Organization = Selectable<OrganizationsTable>;
export type Membership = Selectable<MembershipsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type Job = Selectable<JobsTable>;
export type Email = Selectable<EmailsTable>;
export type Project = Selectable<ProjectsTable>;
export type Template = Selectable<TemplatesTable>;
