import { z } from "zod/v4";
import { listProjectsSchema, SORT_FIELDS } from "../projects/projects.schema";

/**
 * Query of GET /api/admin/projects: the project list's filters, the spec's
 * aliases (`template`, `assignee`, a date range) and its `sort`: a sortBy
 * field, descending with a leading `-` (`sort=name`, `sort=-updatedAt`).
 */

export const ADMIN_PROJECT_SORTS = [
  "name",
  "-name",
  "createdAt",
  "-createdAt",
  "updatedAt",
  "-updatedAt",
  "status",
  "-status",
  "priority",
  "-priority",
] as const satisfies readonly (`${(typeof SORT_FIELDS)[number]}` | `-${(typeof SORT_FIELDS)[number]}`)[];

export const adminProjectsQuery = listProjectsSchema.extend({
  /** Without sort or sortBy: updatedAt, newest first. */
  sortBy: z.enum(SORT_FIELDS, { error: `sortBy must be one of ${SORT_FIELDS.join(", ")}` }).optional(),
  sort: z.enum(ADMIN_PROJECT_SORTS, { error: `sort must be one of ${ADMIN_PROJECT_SORTS.join(", ")}` }).optional(),
  /** Alias of templateId. */
  template: z.string().trim().max(100).optional(),
  /** Alias of assignedToId. */
  assignee: z.string().trim().min(1).max(100).optional(),
  /** Aliases of createdFrom / createdTo. */
  dateFrom: listProjectsSchema.shape.createdFrom,
  dateTo: listProjectsSchema.shape.createdTo,
});
export type AdminProjectsQuery = z.infer<typeof adminProjectsQuery>;
