import { sql } from "kysely";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { readableProjects } from "./access.server";
import { presentProject } from "./present.server";
import {
  type ListProjectsQuery,
  PRIORITIES,
  type Priority,
  priorityRank,
  type ProjectStatus,
  statusRank,
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

  let base = db.selectFrom("projects as p").where(readableProjects(actor));
  if (q.search) {
    if (q.search.length >= 3 && !/[\\%_]/.test(q.search)) {
      // The trigram index of names (migration 0005) finds the substring without testing every project.
      base = base.where("p.seq", "in", sql<number>`(SELECT rowid FROM projectNames WHERE name LIKE ${`%${q.search}%`})`);
    } else {
      const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where(sql<boolean>`p.name LIKE ${like} ESCAPE '\\'`);
    }
  }
  // Filter on the rank columns: they are what the (orgId, rank, updatedAt) indexes hold.
  if (statuses.length) base = base.where("p.statusRank", "in", statuses.map(statusRank));
  if (priorities.length) {
    base = base.where("p.priorityRank", "in", priorities.map((p) => (p === "none" ? 0 : priorityRank(p as Priority))));
  }
  if (q.templateId) base = base.where("p.templateId", "=", q.templateId);
  if (q.assignedToMe) base = base.where("p.assignedToId", "=", actor.user.id);
  if (q.assignedToId) {
    base =
      q.assignedToId === "none"
        ? base.where("p.assignedToId", "is", null)
        : base.where("p.assignedToId", "=", q.assignedToId);
  }
  if (q.createdFrom) base = base.where("p.createdAt", ">=", q.createdFrom);
  if (q.createdTo) base = base.where("p.createdAt", "<=", q.createdTo);
  if (q.createdFrom && q.createdTo && q.createdFrom > q.createdTo) {
    throw validationError("createdTo", "createdTo must not be before createdFrom");
  }

  const order = q.sortOrder ?? (q.sortBy === "name" ? "asc" : "desc");
  const column = SORT_COLUMNS[q.sortBy];
  // Ties break on seq, the rowid every index ends with, so SQLite walks an
  // index in order instead of sorting in a temporary B-tree.
  const orderTerms = [
    q.sortBy === "name" ? sql`p.name COLLATE NOCASE` : sql.ref(column),
    ...(q.sortBy === "status" || q.sortBy === "priority" ? [sql.ref("p.updatedAt")] : []),
    sql.ref("p.seq"),
  ];
  // The page's keys come from the index alone; only those rows are loaded.
  let keys = base.select("p.seq");
  let page = db
    .selectFrom("projects as p")
    .leftJoin("users as a", "a.id", "p.assignedToId")
    .selectAll("p")
    .select(["a.name as assigneeName"]);
  for (const term of orderTerms) {
    keys = keys.orderBy(term, order);
    page = page.orderBy(term, order);
  }
  const [rows, count] = await Promise.all([
    page.where("p.seq", "in", keys.limit(q.limit).offset(q.offset)).execute(),
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

