import type { Generated } from "kysely";

/** Projects, PRDs, versions, files, comments, sharing and search. */

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

/** The live (collaborative) document of a project's PRD: a merged Yjs update (docs/design/live-editing.md). */
export interface PrdLiveDocsTable {
  projectId: string;
  state: Buffer;
  /** The PRD version the live document was last reconciled with (null: the project had no PRD). */
  versionId: string | null;
  /** 1 while it holds edits not yet saved as a PRD version. */
  dirty: number;
  updatedAt: string;
}

/** Yjs updates accepted since the snapshot in prdLiveDocs, in order; folded into it by compaction. */
export interface PrdLiveUpdatesTable {
  id: Generated<number>;
  projectId: string;
  data: Buffer;
  clientId: string | null;
  userId: string | null;
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
  /** The passage commented on, as a reader sees it (migration 0020); replies copy their thread's. */
  quote: string | null;
  quotePrefix: string | null;
  quoteSuffix: string | null;
  /** Set on a resolved thread's top-level comment. */
  resolvedAt: string | null;
  resolvedBy: string | null;
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
  /** Review requests: SHA-256 of the personal review token (unique) and the token encrypted, so the team can copy the link again. */
  reviewTokenHash: string | null;
  reviewTokenEncrypted: string | null;
  /** When and to which address the personal link was last mailed. */
  reviewLinkSentAt: string | null;
  reviewLinkSentTo: string | null;
  /** 1: only the personal link may decide the review (not the share link). */
  personalLinkOnly: number;
  resolvedVia: "personal_link" | "share_link" | null;
  /** The address the personal link had been mailed to, when the latest decision came through it. */
  resolvedByEmail: string | null;
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
