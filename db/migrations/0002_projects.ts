import { type Kysely, sql } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// Projects, PRDs and collaboration; the templates table is here because
// project detail joins it (template versions and the marketplace extend it).

const up_statements = [
  `CREATE TABLE templates (
    id TEXT PRIMARY KEY,
    orgId TEXT REFERENCES organizations(id) ON DELETE CASCADE,
    userId TEXT REFERENCES users(id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    category TEXT NOT NULL DEFAULT 'general',
    templateType TEXT NOT NULL CHECK (templateType IN ('personal','organization','system','marketplace')),
    visibility TEXT NOT NULL CHECK (visibility IN ('personal','organization','public')),
    systemPrompt TEXT NOT NULL DEFAULT '',
    initialQuestion TEXT NOT NULL DEFAULT '',
    sections TEXT NOT NULL DEFAULT '[]',
    tags TEXT NOT NULL DEFAULT '[]',
    features TEXT NOT NULL DEFAULT '[]',
    isActive INTEGER NOT NULL DEFAULT 1,
    isFeatured INTEGER NOT NULL DEFAULT 0,
    pricingTier TEXT NOT NULL DEFAULT 'free',
    usageCount INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX templates_org ON templates(orgId, templateType)`,
  // seq is the stable integer key (rowid alias) of the project's search row.
  `CREATE TABLE projects (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    statusRank INTEGER NOT NULL,
    priority TEXT,
    priorityRank INTEGER NOT NULL DEFAULT 0,
    templateId TEXT,
    assignedToId TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    revision INTEGER NOT NULL DEFAULT 1,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX projects_org_updated ON projects(orgId, updatedAt)`,
  `CREATE INDEX projects_org_created ON projects(orgId, createdAt)`,
  `CREATE INDEX projects_org_name ON projects(orgId, name COLLATE NOCASE)`,
  `CREATE INDEX projects_org_status ON projects(orgId, statusRank, updatedAt)`,
  `CREATE INDEX projects_org_priority ON projects(orgId, priorityRank, updatedAt)`,
  `CREATE INDEX projects_org_assignee ON projects(orgId, assignedToId, updatedAt)`,
  `CREATE INDEX projects_org_template ON projects(orgId, templateId, updatedAt)`,
  `CREATE TABLE projectStatusHistory (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    fromStatus TEXT,
    toStatus TEXT NOT NULL,
    changedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX projectStatusHistory_project ON projectStatusHistory(projectId, createdAt)`,
  `CREATE TABLE projectActivity (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    actorId TEXT REFERENCES users(id) ON DELETE SET NULL,
    actorName TEXT,
    action TEXT NOT NULL,
    summary TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}',
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX projectActivity_project ON projectActivity(projectId, createdAt)`,
  `CREATE TABLE prds (
    projectId TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    style TEXT,
    currentVersionId TEXT,
    updatedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE prdVersions (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    content TEXT NOT NULL,
    style TEXT,
    label TEXT,
    source TEXT NOT NULL,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    UNIQUE (projectId, number)
  ) STRICT`,
  `CREATE TABLE blobs (
    id TEXT PRIMARY KEY,
    data BLOB NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE projectFolders (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    parentId TEXT REFERENCES projectFolders(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX projectFolders_project ON projectFolders(projectId, parentId)`,
  `CREATE TABLE projectFiles (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    folderId TEXT REFERENCES projectFolders(id) ON DELETE SET NULL,
    blobId TEXT NOT NULL REFERENCES blobs(id),
    filename TEXT NOT NULL,
    contentType TEXT NOT NULL,
    size INTEGER NOT NULL,
    uploadedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX projectFiles_project ON projectFiles(projectId, folderId)`,
  // A blob goes with the last file that uses it.
  `CREATE TRIGGER projectFiles_delete_blob AFTER DELETE ON projectFiles
   WHEN NOT EXISTS (SELECT 1 FROM projectFiles WHERE blobId = OLD.blobId)
   BEGIN DELETE FROM blobs WHERE id = OLD.blobId; END`,
  `CREATE TABLE comments (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    userId TEXT REFERENCES users(id) ON DELETE SET NULL,
    parentId TEXT REFERENCES comments(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    section TEXT,
    blockId TEXT,
    mentions TEXT NOT NULL DEFAULT '[]',
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    editedAt TEXT,
    deletedAt TEXT
  ) STRICT`,
  `CREATE INDEX comments_project ON comments(projectId, createdAt)`,
  `CREATE TABLE projectShares (
    projectId TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    tokenHash TEXT NOT NULL UNIQUE,
    tokenEncrypted TEXT NOT NULL,
    passwordHash TEXT,
    expiresAt TEXT,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE projectCollaborators (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('editor','commenter','viewer')),
    addedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    UNIQUE (projectId, userId)
  ) STRICT`,
  `CREATE INDEX projectCollaborators_user ON projectCollaborators(userId)`,
  `CREATE TABLE stakeholderViews (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    stakeholderName TEXT,
    stakeholderEmail TEXT,
    audience TEXT,
    sections TEXT NOT NULL DEFAULT '[]',
    notes TEXT,
    kind TEXT NOT NULL DEFAULT 'view',
    payload TEXT NOT NULL DEFAULT '{}',
    reviewStatus TEXT CHECK (reviewStatus IN ('pending','approved','rejected')),
    feedback TEXT,
    resolvedAt TEXT,
    resolvedByName TEXT,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX stakeholderViews_project ON stakeholderViews(projectId, createdAt)`,
  `CREATE TABLE projectLinks (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    url TEXT,
    targetProjectId TEXT REFERENCES projects(id) ON DELETE CASCADE,
    linkType TEXT NOT NULL,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX projectLinks_project ON projectLinks(projectId, createdAt)`,
  // Keyword search over name, description and PRD content (kept in step by the domain).
  // Its rowid is projects.seq.
  `CREATE VIRTUAL TABLE projectSearch USING fts5(
    name, description, content,
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`,
  // Deleting a project (or its organization) removes it from the index too.
  `CREATE TRIGGER projects_delete_search AFTER DELETE ON projects
   BEGIN DELETE FROM projectSearch WHERE rowid = OLD.seq; END`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const table of [
    "projectSearch",
    "projectLinks",
    "stakeholderViews",
    "projectCollaborators",
    "projectShares",
    "comments",
    "projectFiles",
    "projectFolders",
    "blobs",
    "prdVersions",
    "prds",
    "projectActivity",
    "projectStatusHistory",
    "projects",
    "templates",
  ]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
