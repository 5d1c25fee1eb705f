import { type Expression, expressionBuilder, type SqlBool } from "kysely";
import type { CollaboratorRole, Database, Project, Role } from "#db/schema";
import { compiledQuery, db, type Executor, type Slots } from "~/db.server";
import type { Actor } from "../actor";
import { StampedCache } from "~/utils/stamped-cache.server";
import { forbidden, notFound } from "../errors";

/**
 * Who may do what with a project (docs/projects.md, "Who may do what"). Every project
 * operation goes through `projectAccess`, and every query over many projects
 * filters with `readableProjects`; nothing else decides.
 *
 * - owner, admin: everything in the organization
 * - member: reads every project; edits those they created, are assigned to,
 *   or collaborate on as editor; comments on any project they can read
 * - viewer: reads only projects they collaborate on; edits as an editor
 *   collaborator, comments as editor or commenter
 * - share token: reads the one shared project (detail, PRD, status history,
 *   activity) and nothing else
 */

// ---------------------------------------------------------------- who reads which projects

/** Roles that read every project of their organization; any other role (viewer) reads only the projects shared with it. */
const READS_ALL: ReadonlySet<Role> = new Set<Role>(["owner", "admin", "member"]);

/** Whom a visibility filter is for: an actor, or a user in one of their organizations (weekly digest, data export). */
export interface Reader {
  user: { id: string };
  org: { id: string };
  role: Role;
}

/**
 * THE visibility rule, as a filter over the alias `p` of `projects`: the
 * projects of the reader's organization that the reader may read. Every
 * query that lists, searches, counts or exports projects for someone puts it
 * in its WHERE (`.where(readableProjects(actor))`, or `${readableProjects(actor)}`
 * inside a `sql` template); `projectAccess` applies the same rule to one row.
 *
 * - owner, admin, member: `p.orgId = ?`
 * - viewer: `p.orgId = ? AND EXISTS (collaborator row of p for the user)`,
 *   a correlated probe answered from the (projectId, userId) unique index
 *   alone (it selects a constant, so the probe never reads the table), which
 *   keeps each list and search on the same (orgId, …) index walk as a
 *   member's (docs/benchmarks.md, "10,000 projects").
 */
export function readableProjects(reader: Reader): Expression<SqlBool> {
  const eb = expressionBuilder<Database & { p: Database["projects"] }, "p">();
  const inOrg = eb("p.orgId", "=", reader.org.id);
  if (READS_ALL.has(reader.role)) return inOrg;
  return eb.and([
    inOrg,
    eb.exists(
      eb.selectFrom("projectCollaborators as c").select(eb.lit(1).as("one")).whereRef("c.projectId", "=", "p.id").where("c.userId", "=", reader.user.id),
    ),
  ]);
}

/**
 * `readableProjects` turned around, for one project: a filter over the alias
 * `m` of `memberships` keeping the members of the project's organization who
 * may read it (a role that reads all, or a collaborator row of the project for
 * the member). Who may be @mentioned on a project is listed with it.
 */
export function readersOf(project: { id: string; orgId: string }): Expression<SqlBool> {
  const eb = expressionBuilder<Database & { m: Database["memberships"] }, "m">();
  return eb.and([
    eb("m.orgId", "=", project.orgId),
    eb.or([
      eb("m.role", "in", [...READS_ALL]),
      eb.exists(
        eb.selectFrom("projectCollaborators as c").select(eb.lit(1).as("one")).where("c.projectId", "=", project.id).whereRef("c.userId", "=", "m.userId"),
      ),
    ]),
  ]);
}

/**
 * Which set of projects `readableProjects` gives this reader, as a cache key:
 * the organization for the roles that read all of it, the organization and
 * user otherwise. Results computed under one filter are shared only with
 * readers of the same scope.
 */
export function readerScope(reader: Reader): string {
  return READS_ALL.has(reader.role) ? `org:${reader.org.id}` : `org:${reader.org.id}:user:${reader.user.id}`;
}

export interface ShareViewer {
  via: "share";
  projectId: string;
  orgId: string;
}
export type Viewer = Actor | ShareViewer;

export const isShareViewer = (v: Viewer): v is ShareViewer => v.via === "share";

export interface ProjectAccess {
  project: Project;
  collaboratorRole: CollaboratorRole | null;
  canEdit: boolean;
  canComment: boolean;
  /** Share settings, collaborators, stakeholder views, links. */
  canManage: boolean;
  canDelete: boolean;
}

/** The project and the caller's collaborator role: one compiled query (every project request starts here). */
const projectWithRole = compiledQuery((p: Slots<"projectId" | "userId">) =>
  db
    .selectFrom("projects as p")
    .leftJoin("projectCollaborators as c", (join) => join.onRef("c.projectId", "=", "p.id").on("c.userId", "=", p.userId))
    .selectAll("p")
    .select("c.role as collaboratorRole")
    .where("p.id", "=", p.projectId),
);

/**
 * The rows of projects in use with their caller's role, until the next write
 * to the database. Each call below copies the row, so no caller shares one.
 */
const projectRows = new StampedCache<Awaited<ReturnType<typeof projectWithRole>>["rows"][number] | undefined>(2000);

export async function projectAccess(viewer: Viewer, projectId: string, executor: Executor = db): Promise<ProjectAccess> {
  if (isShareViewer(viewer)) {
    const project = await executor.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirst();
    if (!project || viewer.projectId !== project.id) throw notFound("Project");
    return { project, collaboratorRole: null, canEdit: false, canComment: false, canManage: false, canDelete: false };
  }
  const userId = viewer.user.id;
  const load = async () => (await projectWithRole({ projectId, userId }, executor)).rows[0];
  // Inside a transaction, read what the transaction sees; outside, the row until the next write.
  const row = executor === db ? await projectRows.get(`${projectId}:${userId}`, load) : await load();
  if (!row || row.orgId !== viewer.org.id) throw notFound("Project");
  const { collaboratorRole: role, ...project } = row;
  const collaboratorRole = role ?? null;
  // The row-level form of readableProjects: outside READS_ALL, only a collaborator reads.
  if (!READS_ALL.has(viewer.role) && !collaboratorRole) throw notFound("Project");
  const me = viewer.user.id;
  switch (viewer.role) {
    case "owner":
    case "admin":
      return { project, collaboratorRole, canEdit: true, canComment: true, canManage: true, canDelete: true };
    case "member": {
      const mine = project.createdById === me;
      const edit = mine || project.assignedToId === me || collaboratorRole === "editor";
      return { project, collaboratorRole, canEdit: edit, canComment: true, canManage: edit, canDelete: mine };
    }
    case "viewer":
      return {
        project,
        collaboratorRole,
        canEdit: collaboratorRole === "editor",
        canComment: collaboratorRole !== "viewer",
        canManage: false,
        canDelete: false,
      };
  }
}

export async function requireEdit(viewer: Viewer, projectId: string, executor: Executor = db) {
  const access = await projectAccess(viewer, projectId, executor);
  if (!access.canEdit) throw forbidden("You can read this project but not edit it");
  return access;
}

export async function requireComment(viewer: Viewer, projectId: string, executor: Executor = db) {
  const access = await projectAccess(viewer, projectId, executor);
  if (!access.canComment) throw forbidden("You cannot comment on this project");
  return access;
}

export async function requireManage(viewer: Viewer, projectId: string, executor: Executor = db) {
  const access = await projectAccess(viewer, projectId, executor);
  if (!access.canManage) throw forbidden("Only people who can edit this project may manage sharing and people");
  return access;
}

/** An actor (not a share link) is needed for anything beyond reading. */
export function requireActor(viewer: Viewer): Actor {
  if (isShareViewer(viewer)) throw forbidden("A share link gives read-only access");
  return viewer;
}

export function permissions(access: ProjectAccess) {
  return {
    canEdit: access.canEdit,
    canComment: access.canComment,
    canManage: access.canManage,
    canDelete: access.canDelete,
  };
}
