import { z } from "zod/v4";
import {
  assignSchema,
  createProjectSchema,
  listProjectsSchema,
  PRIORITIES,
  PROJECT_STATUSES,
  statusSchema,
  updateProjectSchema,
} from "~/domain/projects/projects.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Projects";
const params = z.object({ projectId: z.string() });

export const projectShape = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(PROJECT_STATUSES),
  priority: z.enum(PRIORITIES).nullable(),
  templateId: z.string().nullable(),
  assignedToId: z.string().nullable(),
  createdById: z.string().nullable(),
  revision: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const projectDetailShape = projectShape.extend({
  template: z
    .object({
      id: z.string(),
      name: z.string(),
      category: z.string(),
      templateType: z.string(),
      description: z.string(),
      sections: z.array(z.string()),
      initialQuestion: z.string(),
    })
    .nullable(),
  assignee: z.object({ id: z.string(), name: z.string(), email: z.string().optional() }).nullable(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  prd: z.object({ versionNumber: z.number().nullable(), style: z.string().nullable(), updatedAt: z.string() }).nullable(),
  permissions: z.object({ canEdit: z.boolean(), canComment: z.boolean(), canManage: z.boolean(), canDelete: z.boolean() }),
});

const shareNote = " Also readable with `x-share-token` (and `x-share-password` when the share has one).";

export const listProjects = contract({
  method: "GET",
  path: "/api/projects",
  tag,
  summary: "List projects",
  description:
    "Projects the caller may read. `status` and `priority` take one value or a comma-separated list (`priority=none` matches projects without one). `search` matches the name. `assignedToMe=true`, or `assignedToId` (a user id, or `none` for unassigned). `createdFrom` / `createdTo` bound the creation date (YYYY-MM-DD or ISO date-time, inclusive; a bare upper date covers the whole day). Sorted by `sortBy` (name, createdAt, updatedAt, status, priority; default updatedAt) and `sortOrder` (default desc, asc for name). `limit` 1–200 (default 50), `offset`.",
  auth: "user",
  query: listProjectsSchema,
  response: z.object({
    projects: z.array(projectShape.extend({ assignee: z.object({ id: z.string(), name: z.string().nullable() }).nullable() })),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
  errors: ["VALIDATION_ERROR", "INVALID_STATUS"],
});

export const createProject = contract({
  method: "POST",
  path: "/api/projects",
  tag,
  summary: "Create a project",
  description: "Status defaults to DRAFT. Counts against the plan's projects limit. Viewers may not create projects.",
  auth: "user",
  body: createProjectSchema,
  successStatus: 201,
  response: projectDetailShape,
  etag: {},
  errors: ["VALIDATION_ERROR", "INVALID_STATUS", "FORBIDDEN", "LIMIT_REACHED"],
});

export const getProject = contract({
  method: "GET",
  path: "/api/projects/{projectId}",
  tag,
  summary: "Get a project with template, assignee and PRD summary",
  description: `Sends an ETag (the revision) for If-Match on PATCH.${shareNote}`,
  auth: "share",
  params,
  response: projectDetailShape,
  etag: {},
  errors: ["NOT_FOUND", "INVALID_TOKEN", "SHARE_EXPIRED", "SHARE_PASSWORD_REQUIRED"],
});

export const updateProject = contract({
  method: "PATCH",
  path: "/api/projects/{projectId}",
  tag,
  summary: "Update a project",
  description:
    "Any of name, description, status, priority, assignedToId, templateId (null clears). Send `If-Match: <ETag>` or `baseRevision` to refuse the write with 409 CONFLICT (body carries `current`) when someone changed the project since you read it.",
  heldBy: "prd_publish",
  auth: "user",
  params,
  body: updateProjectSchema,
  response: projectDetailShape,
  etag: { ifMatch: true },
  errors: ["VALIDATION_ERROR", "INVALID_STATUS", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const deleteProject = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}",
  tag,
  summary: "Delete a project with its PRD, versions, files, comments and share",
  description: "Owners and admins, or the member who created it.",
  heldBy: "project_delete",
  auth: "user",
  params,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const setStatus = contract({
  method: "PATCH",
  path: "/api/projects/{projectId}/status",
  tag,
  summary: "Change the status",
  description: `Any move between ${PROJECT_STATUSES.join(", ")} is allowed and recorded in the status history.`,
  heldBy: "prd_publish",
  auth: "user",
  params,
  body: statusSchema,
  response: projectDetailShape,
  errors: ["INVALID_STATUS", "FORBIDDEN", "NOT_FOUND"],
});

export const statusHistory = contract({
  method: "GET",
  path: "/api/projects/{projectId}/status-history",
  tag,
  summary: "Status history, oldest first",
  description: `The first entry (from null) is the status at creation.${shareNote}`,
  auth: "share",
  params,
  response: z.object({
    history: z.array(
      z.object({
        id: z.string(),
        from: z.string().nullable(),
        to: z.string(),
        changedBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
        createdAt: z.string(),
      }),
    ),
  }),
  errors: ["NOT_FOUND"],
});

export const activity = contract({
  method: "GET",
  path: "/api/projects/{projectId}/activity",
  tag,
  summary: "Activity feed, newest first",
  description: `Every change: who, what, when. \`limit\` (default 50, max 200) and \`offset\`.${shareNote}`,
  auth: "share",
  params,
  query: z.object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  }),
  response: z.object({
    activities: z.array(
      z.object({
        id: z.string(),
        action: z.string(),
        summary: z.string(),
        actor: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
        data: z.record(z.string(), z.unknown()),
        createdAt: z.string(),
      }),
    ),
    total: z.number(),
  }),
  errors: ["NOT_FOUND"],
});

export const assign = contract({
  method: "PATCH",
  path: "/api/projects/{projectId}/assign",
  tag,
  summary: "Assign the project to a member (null unassigns)",
  auth: "user",
  params,
  body: assignSchema,
  response: projectDetailShape,
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});
