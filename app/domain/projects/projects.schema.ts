import { z } from "zod/v4";
import { formBoolean } from "../form-fields";

/** Project status and priority values (docs/projects.md). */
export const PROJECT_STATUSES = ["DRAFT", "IN_PROGRESS", "READY_FOR_PRD", "IN_REVIEW", "APPROVED", "COMPLETED", "ARCHIVED"] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const STATUS_LABELS: Record<ProjectStatus, string> = {
  DRAFT: "Draft",
  IN_PROGRESS: "In progress",
  READY_FOR_PRD: "Ready for PRD",
  IN_REVIEW: "In review",
  APPROVED: "Approved",
  COMPLETED: "Completed",
  ARCHIVED: "Archived",
};

export const SORT_FIELDS = ["name", "createdAt", "updatedAt", "status", "priority"] as const;

export const statusRank = (s: ProjectStatus) => PROJECT_STATUSES.indexOf(s) + 1;
export const priorityRank = (p: Priority | null) => (p ? PRIORITIES.indexOf(p) + 1 : 0);

// Status is checked by the domain so that a wrong value is 400 INVALID_STATUS.
const status = z.string().trim().max(40);
const priority = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(PRIORITIES, { error: `Priority must be one of ${PRIORITIES.join(", ")}` }));
const optionalId = z.string().trim().max(100);

const emptyToNull = (v: unknown) => (v === "" ? null : v);

export const createProjectSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200),
  description: z.string().trim().max(5000).optional(),
  templateId: z.preprocess(emptyToNull, optionalId.nullable()).optional(),
  status: status.optional(),
  priority: z.preprocess(emptyToNull, priority.nullable()).optional(),
  assignedToId: z.preprocess(emptyToNull, optionalId.nullable()).optional(),
});
export type CreateProjectInput = z.infer<typeof createProjectSchema>;

export const updateProjectSchema = z.object({
  name: z.string().trim().min(1, "Name cannot be empty").max(200).optional(),
  description: z.string().trim().max(5000).optional(),
  status: status.optional(),
  priority: z.preprocess(emptyToNull, priority.nullable()).optional(),
  assignedToId: z.preprocess(emptyToNull, optionalId.nullable()).optional(),
  templateId: z.preprocess(emptyToNull, optionalId.nullable()).optional(),
  /** The `revision` the client edited (alternative to If-Match). */
  baseRevision: z.coerce.number().int().positive().optional(),
});
export type UpdateProjectInput = z.infer<typeof updateProjectSchema>;

export const statusSchema = z.object({ status: z.string({ error: "Status is required" }).trim().max(40) });
export const assignSchema = z.object({ assignedToId: z.preprocess(emptyToNull, optionalId.nullable()) });

const bool = formBoolean;

/** A date or date-time bound; a bare `YYYY-MM-DD` upper bound covers the whole day. */
function dateBound(field: string, endOfDay = false) {
  return z
    .string()
    .trim()
    .max(40)
    .transform((v, ctx) => {
      const bare = /^\d{4}-\d{2}-\d{2}$/.test(v);
      const t = Date.parse(bare ? `${v}T00:00:00.000Z` : v);
      if (Number.isNaN(t)) {
        ctx.addIssue({ code: "custom", message: `${field} must be a date (YYYY-MM-DD) or an ISO date-time` });
        return z.NEVER;
      }
      return new Date(bare && endOfDay ? t + 86_400_000 - 1 : t).toISOString();
    });
}

export const listProjectsSchema = z.object({
  search: z.string().trim().max(200).optional(),
  status: z.string().trim().max(200).optional(),
  templateId: z.string().trim().max(100).optional(),
  priority: z.string().trim().max(100).optional(),
  sortBy: z.enum(SORT_FIELDS, { error: `sortBy must be one of ${SORT_FIELDS.join(", ")}` }).default("updatedAt"),
  sortOrder: z.enum(["asc", "desc"], { error: "sortOrder must be asc or desc" }).optional(),
  assignedToMe: bool.optional(),
  /** A member's user id, or `none` for unassigned projects. */
  assignedToId: z.string().trim().min(1).max(100).optional(),
  /** Created on or after this date (YYYY-MM-DD or an ISO date-time). */
  createdFrom: dateBound("createdFrom").optional(),
  /** Created on or before this date (a bare date includes the whole day). */
  createdTo: dateBound("createdTo", true).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListProjectsQuery = z.infer<typeof listProjectsSchema>;
