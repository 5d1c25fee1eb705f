import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { validationError } from "../errors";
import { listProjects } from "../projects/list.server";
import type { SORT_FIELDS } from "../projects/projects.schema";
import type { AdminProjectsQuery } from "./admin-projects.schema";

/**
 * Every project of the organization for its owners and admins
 * (GET /api/admin/projects): the project list with the spec's aliases and
 * `sort` (`name`, `-name`, ...) turned into its filters and sortBy/sortOrder.
 */
export function listOrgProjects(actor: Actor, query: AdminProjectsQuery) {
  requireRole(actor, ADMIN_ROLES, "list all projects");
  const { template, assignee, dateFrom, dateTo, sort, sortBy, sortOrder, ...rest } = query;
  if (sort && (sortBy || sortOrder)) throw validationError("sort", "Send sort, or sortBy and sortOrder, not both");
  const order = sort
    ? { sortBy: sort.replace(/^-/, "") as (typeof SORT_FIELDS)[number], sortOrder: sort.startsWith("-") ? ("desc" as const) : ("asc" as const) }
    : { sortBy: sortBy ?? "updatedAt", sortOrder };
  return listProjects(actor, {
    ...rest,
    ...order,
    templateId: rest.templateId ?? template,
    assignedToId: rest.assignedToId ?? assignee,
    createdFrom: rest.createdFrom ?? dateFrom,
    createdTo: rest.createdTo ?? dateTo,
  });
}
