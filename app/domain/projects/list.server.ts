import { sql } from "kysely";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { presentProject } from "./present.server";
import {
  type ListProjectsQuery,
  PRIORITIES,
  type Priority,
  type ProjectStatus,
} from "./projects.schema";
import { parseStatus } from "./status";
import { validationError } from "../errors";

const SORT_COLUMNS = {
  name: "p.name",
  createdAt: "p.createdAt",
  updatedAt: "p.updatedAt",
  status: "p.statusRank",
  priority: "p.priorityRank",
} as const;

function csv(value: string | undefined) {
  return (value ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * Projects the actor may read, filtered, sorted and paginated, with the total.
 * Every filter and sort is served by an (orgId, …) index; see docs/benchmarks.md.
 */
export async function listProjects(actor: Actor, q: ListProjectsQuery) {
  const statuses: ProjectStatus[] = csv(q.status).map(parseStatus);
  const priorities = csv(q.priority).map((p) => p.toLowerCase());
  for (const p of priorities) {
    if (p !== "none" && !PRIORITIES.includes(p as Priority)) {
      throw validationError("priority", `Priority must be one of ${PRIORITIES.join(", ")} (or none)`);
    }
  }

  let base = db.selectFrom("projects as p").where("p.orgId", "=", actor.org.id);
  if (actor.role === "viewer") {
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom("projectCollaborators as c")
          .select("c.id")
          .whereRef("c.projectId", "=", "p.id")
          .where("c.userId", "=", actor.user.id),
      ),
    );
  }
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where(sql<boolean>`p.name LIKE ${like} ESCAPE '\\'`);
  }
  if (statuses.length) base = base.where("p.status", "in", statuses);
  if (priorities.length) {
    const named = priorities.filter((p) => p !== "none");
    base = base.where((eb) =>
      eb.or([
        ...(named.length ? [eb("p.priority", "in", named)] : []),
        ...(priorities.includes("none") ? [eb("p.priority", "is", null)] : []),
      ]),
    );
  }
  if (q.templateId) base = base.where("p.templateId", "=", q.templateId);
  if (q.assignedToMe) base = base.where("p.assignedToId", "=", actor.user.id);

  const order = q.sortOrder ?? (q.sortBy === "name" ? "asc" : "desc");
  const column = SORT_COLUMNS[q.sortBy];
  const [rows, count] = await Promise.all([
    base
      .leftJoin("users as a", "a.id", "p.assignedToId")
      .selectAll("p")
      .select(["a.name as assigneeName"])
      .orderBy(q.sortBy === "name" ? sql`p.name COLLATE NOCASE` : sql.ref(column), order)
      .orderBy("p.id", order)
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    projects: rows.map(({ assigneeName, ...p }) => ({
      ...presentProject(p),
      assignee: p.assignedToId ? { id: p.assignedToId, name: assigneeName } : null,
    })),
    total: Number(count.n),
    limit: q.limit,
    offset: q.offset,
  };
}

