import { sql } from "kysely";
import { db } from "~/db.server";
import { QueryTemplates, slot } from "~/utils/query-template.server";
import type { Actor } from "../actor";
import { readableProjects } from "./access.server";
import { presentProject } from "./present.server";
import { type ListProjectsQuery, PRIORITIES, type Priority, priorityRank, type ProjectStatus, statusRank } from "./projects.schema";
import { parseStatus } from "./status";
import { validationError } from "../errors";

const SORT_COLUMNS = {
  name: "p.name",
  createdAt: "p.createdAt",
  updatedAt: "p.updatedAt",
  status: "p.statusRank",
  priority: "p.priorityRank",
} as const;

/** The list's compiled queries, one per shape of filters and sort (app/utils/query-template.server.ts). */
const templates = new QueryTemplates();

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

  if (q.createdFrom && q.createdTo && q.createdFrom > q.createdTo) {
    throw validationError("createdTo", "createdTo must not be before createdFrom");
  }
  const searchMode = !q.search ? "" : q.search.length >= 3 && !/[\\%_]/.test(q.search) ? "names" : "like";
  const order = q.sortOrder ?? (q.sortBy === "name" ? "asc" : "desc");
  const assigned = !q.assignedToId ? "" : q.assignedToId === "none" ? "none" : "id";
  // Everything that changes the SQL text; the values below fill its slots.
  const shape = JSON.stringify([
    actor.role,
    searchMode,
    statuses.length,
    priorities.length,
    !!q.templateId,
    !!q.assignedToMe,
    assigned,
    !!q.createdFrom,
    !!q.createdTo,
    q.sortBy,
    order,
  ]);
  const values: Record<string, unknown> = {
    orgId: actor.org.id,
    userId: actor.user.id,
    search: searchMode === "names" ? `%${q.search}%` : searchMode === "like" ? `%${q.search!.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined,
    templateId: q.templateId,
    assignedToId: q.assignedToId,
    createdFrom: q.createdFrom,
    createdTo: q.createdTo,
    limit: q.limit,
    offset: q.offset,
  };
  statuses.forEach((status, i) => (values[`status${i}`] = statusRank(status)));
  priorities.forEach((p, i) => (values[`priority${i}`] = p === "none" ? 0 : priorityRank(p as Priority)));

  /** The list's query of this shape, every value a slot. */
  const build = () => {
    const reader = { user: { id: slot("userId") }, org: { id: slot("orgId") }, role: actor.role };
    let base = db.selectFrom("projects as p").where(readableProjects(reader));
    if (searchMode === "names") {
      // The trigram index of names (migration 0005) finds the substring without testing every project.
      base = base.where("p.seq", "in", sql<number>`(SELECT rowid FROM projectNames WHERE name LIKE ${slot("search")})`);
    } else if (searchMode === "like") {
      base = base.where(sql<boolean>`p.name LIKE ${slot("search")} ESCAPE '\\'`);
    }
    // Filter on the rank columns: they are what the (orgId, rank, updatedAt) indexes hold.
    if (statuses.length)
      base = base.where(
        "p.statusRank",
        "in",
        statuses.map((_, i) => slot<number>(`status${i}`)),
      );
    if (priorities.length)
      base = base.where(
        "p.priorityRank",
        "in",
        priorities.map((_, i) => slot<number>(`priority${i}`)),
      );
    if (q.templateId) base = base.where("p.templateId", "=", slot("templateId"));
    if (q.assignedToMe) base = base.where("p.assignedToId", "=", slot("userId"));
    if (assigned === "none") base = base.where("p.assignedToId", "is", null);
    else if (assigned === "id") base = base.where("p.assignedToId", "=", slot("assignedToId"));
    if (q.createdFrom) base = base.where("p.createdAt", ">=", slot("createdFrom"));
    if (q.createdTo) base = base.where("p.createdAt", "<=", slot("createdTo"));

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
    let page = db.selectFrom("projects as p").leftJoin("users as a", "a.id", "p.assignedToId").selectAll("p").select(["a.name as assigneeName"]);
    for (const term of orderTerms) {
      keys = keys.orderBy(term, order);
      page = page.orderBy(term, order);
    }
    return {
      page: page.where("p.seq", "in", keys.limit(slot<number>("limit")).offset(slot<number>("offset"))),
      count: base.select((eb) => eb.fn.countAll<number>().as("n")),
    };
  };
  const [{ rows }, counted] = await Promise.all([
    db.executeQuery(templates.fill(`page ${shape}`, () => build().page, values)),
    db.executeQuery(templates.fill(`count ${shape}`, () => build().count, values)),
  ]);
  const count = counted.rows[0]!;
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
