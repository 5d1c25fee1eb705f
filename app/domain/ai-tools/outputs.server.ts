import type { Project } from "#db/schema";
import { loadTaskContext } from "~/ai/context.server";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { notFound } from "../errors";
import { recordChange } from "../projects/activity.server";
import { projectAccess, requireEdit, type Viewer } from "../projects/access.server";
import type { OutputKind } from "./ai-tools.schema";

/**
 * AI tool results kept with a project. A tool called with `projectId` works
 * in that project's context (template, name) and saves what it produced, so
 * the team finds it again in the project's AI tools. Saving needs edit
 * rights on the project, so that is checked before the tool runs.
 */

export async function toolScope(actor: Actor, projectId: string | undefined, projectName?: string) {
  if (!projectId) {
    const ctx = await loadTaskContext(actor.user.id, null);
    return { project: null, ctx: { ...ctx, projectName } };
  }
  const { project } = await requireEdit(actor, projectId);
  return { project, ctx: await loadTaskContext(actor.user.id, project) };
}

export const OUTPUT_TITLES: Record<OutputKind, string> = {
  user_stories: "User stories",
  technical_specs: "Technical specification",
  code_spec: "Code specification",
  launch_content: "Launch content",
  wireframe: "Diagram",
  roadmap: "Roadmap",
};

export async function saveOutput(
  executor: Executor,
  output: {
    project: Pick<Project, "id" | "orgId">;
    actor: Actor;
    kind: OutputKind;
    variant: string | null;
    title: string;
    content: string;
    data?: unknown;
    model: string;
    truncated: boolean;
  },
) {
  const row = {
    id: newId(),
    projectId: output.project.id,
    kind: output.kind,
    variant: output.variant,
    title: output.title,
    content: output.content,
    data: output.data === undefined ? null : JSON.stringify(output.data),
    model: output.model,
    truncated: output.truncated ? 1 : 0,
    createdById: output.actor.user.id,
    createdAt: nowIso(),
  };
  await executor.insertInto("aiOutputs").values(row).execute();
  await recordChange(executor, {
    project: output.project,
    actor: output.actor,
    action: "ai_output.created",
    summary: `${output.actor.user.name} generated ${output.title.toLowerCase()}${output.model === "builtin" ? " with the offline drafter" : ""}`,
    data: { outputId: row.id, kind: row.kind, variant: row.variant },
  });
  return present({ ...row, createdByName: output.actor.user.name });
}

function present(row: {
  id: string;
  kind: string;
  variant: string | null;
  title: string;
  content: string;
  data: string | null;
  model: string;
  truncated: number;
  createdById: string | null;
  createdByName: string | null;
  createdAt: string;
}) {
  return {
    id: row.id,
    kind: row.kind as OutputKind,
    variant: row.variant,
    title: row.title,
    content: row.content,
    data: row.data ? (JSON.parse(row.data) as unknown) : null,
    model: row.model,
    truncated: row.truncated === 1,
    createdBy: row.createdById ? { id: row.createdById, name: row.createdByName } : null,
    createdAt: row.createdAt,
  };
}
export type AiOutput = ReturnType<typeof present>;

export async function listOutputs(viewer: Viewer, projectId: string, query: { kind?: OutputKind; limit: number }) {
  const { project } = await projectAccess(viewer, projectId);
  let q = db
    .selectFrom("aiOutputs as o")
    .leftJoin("users as u", "u.id", "o.createdById")
    .selectAll("o")
    .select("u.name as createdByName")
    .where("o.projectId", "=", project.id);
  if (query.kind) q = q.where("o.kind", "=", query.kind);
  const rows = await q.orderBy("o.createdAt", "desc").orderBy("o.id", "desc").limit(query.limit).execute();
  return rows.map(present);
}

export async function deleteOutput(actor: Actor, projectId: string, outputId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const row = await trx.deleteFrom("aiOutputs").where("id", "=", outputId).where("projectId", "=", project.id).returning(["id", "title"]).executeTakeFirst();
    if (!row) throw notFound("AI output");
  });
}
