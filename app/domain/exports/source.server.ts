import { db, type Executor } from "~/db.server";
import { notFound } from "../errors";
import { projectAccess } from "../projects/access.server";
import type { Actor } from "../actor";
import { STATUS_LABELS, type ProjectStatus } from "../projects/projects.schema";

/** What an export of a project contains: its name, a subtitle and the PRD markdown. */
export interface ExportSource {
  projectId: string;
  orgId: string;
  title: string;
  subtitle: string;
  markdown: string;
  versionNumber: number | null;
}

/** A project's exportable content, for a caller who may read it (404 otherwise, also across organizations). */
export async function projectSourceFor(actor: Actor, projectId: string): Promise<ExportSource> {
  await projectAccess(actor, projectId);
  return projectSource(db, actor.org.id, projectId);
}

/** Same without a caller (scheduled exports): the project must belong to `orgId`. */
export async function projectSource(executor: Executor, orgId: string, projectId: string): Promise<ExportSource> {
  const row = await executor
    .selectFrom("projects as p")
    .leftJoin("prds as d", "d.projectId", "p.id")
    .leftJoin("prdVersions as v", "v.id", "d.currentVersionId")
    .select(["p.id", "p.orgId", "p.name", "p.status", "d.content", "d.updatedAt", "v.number as versionNumber"])
    .where("p.id", "=", projectId)
    .where("p.orgId", "=", orgId)
    .executeTakeFirst();
  if (!row) throw notFound("Project");
  const status = STATUS_LABELS[row.status as ProjectStatus] ?? row.status;
  const parts = [status, row.versionNumber ? `version ${row.versionNumber}` : null].filter(Boolean);
  return {
    projectId: row.id,
    orgId: row.orgId,
    title: row.name,
    subtitle: parts.join(" · "),
    markdown: row.content ?? "",
    versionNumber: row.versionNumber ?? null,
  };
}
