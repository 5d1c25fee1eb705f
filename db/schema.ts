import type { Insertable, Selectable, Updateable } from "kysely";
import type {
  ApiKeysTable,
  AuditLogsTable,
  EmailsTable,
  EventsTable,
  InvitationsTable,
  JobsTable,
  MembershipsTable,
  OneTimeTokensTable,
  OrganizationsTable,
  SessionsTable,
  SignInThrottlesTable,
  UsersTable,
} from "./tables/accounts";
import type {
  BlobsTable,
  CommentsTable,
  PrdLiveDocsTable,
  PrdLiveUpdatesTable,
  PrdsTable,
  PrdVersionsTable,
  ProjectActivityTable,
  ProjectCollaboratorsTable,
  ProjectFilesTable,
  ProjectFoldersTable,
  ProjectLinksTable,
  ProjectSearchTable,
  ProjectSharesTable,
  ProjectStatusHistoryTable,
  ProjectsTable,
  StakeholderViewsTable,
} from "./tables/projects";
import type {
  AiCallsTable,
  AiOutputsTable,
  AiProviderKeysTable,
  MemoriesTable,
  ProjectEmbeddingsTable,
  ProjectQaPairsTable,
  ProjectScoresTable,
} from "./tables/ai";
import type { TemplateSubmissionsTable, TemplatesTable, TemplateVersionsTable } from "./tables/templates";

import type { UserAccountTables } from "./tables/user-account";
import type { NotificationsTables } from "./tables/notifications";
import type { WebhooksTables } from "./tables/webhooks";
import type { IncomingFlagsNpsTables } from "./tables/incoming-flags-nps";
import type { UploadsTables } from "./tables/uploads";
import type { OrgAdminTables } from "./tables/org-admin";
import type { BillingTables } from "./tables/billing";
import type { AuditAllowlistTables } from "./tables/audit-allowlist";
import type { ApprovalsTables } from "./tables/approvals";
import type { ExportsTables } from "./tables/exports";
import type { CommentMentionsTables } from "./tables/comment-mentions";
import type { SlackTables } from "./tables/slack";
import type { TrackersTables } from "./tables/trackers";

/** The one Database type: table interfaces live in ./tables by area. */
export type * from "./tables/accounts";
export type * from "./tables/projects";
export type * from "./tables/templates";
export type * from "./tables/ai";
export type * from "./tables/user-account";
export type * from "./tables/notifications";
export type * from "./tables/webhooks";
export type * from "./tables/incoming-flags-nps";
export type * from "./tables/uploads";
export type * from "./tables/org-admin";
export type * from "./tables/billing";
export type * from "./tables/audit-allowlist";
export type * from "./tables/approvals";
export type * from "./tables/exports";
export type * from "./tables/comment-mentions";
export type * from "./tables/slack";
export type * from "./tables/trackers";

export interface Database
  extends UserAccountTables,
    NotificationsTables,
    WebhooksTables,
    IncomingFlagsNpsTables,
    UploadsTables,
    OrgAdminTables,
    BillingTables,
    AuditAllowlistTables,
    ApprovalsTables,
    ExportsTables,
    CommentMentionsTables,
    TrackersTables,
    SlackTables {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  signInThrottles: SignInThrottlesTable;
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
  prdLiveDocs: PrdLiveDocsTable;
  prdLiveUpdates: PrdLiveUpdatesTable;
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
  aiProviderKeys: AiProviderKeysTable;
  projectQaPairs: ProjectQaPairsTable;
  memories: MemoriesTable;
  projectScores: ProjectScoresTable;
  aiOutputs: AiOutputsTable;
  aiCalls: AiCallsTable;
  projectEmbeddings: ProjectEmbeddingsTable;
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
