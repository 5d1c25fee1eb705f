// Administration dashboard, analytics and bulk deletes.
import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { usageAnalyticsSchema } from "~/domain/admin/analytics.server";
import { dangerApiSchema } from "~/domain/admin/danger.server";
import { adminProjectsQuery } from "~/domain/admin/admin-projects.schema";
import { contract } from "../contract";
import { projectShape } from "./projects";

const tag = "Administration";

const project = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  priority: z.string().nullable(),
  templateId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const adminDashboard = contract({
  method: "GET",
  path: "/api/admin/dashboard",
  tag,
  summary: "Organization dashboard",
  description:
    "Project counts (total, created in the last 7/30 days, per status), the 5 newest projects, members by role and active in the last 7/30 days (profile lastActiveAt), and project activity per day over 30 days (UTC dates, zero-filled).",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({
    projects: z.object({
      total: z.number(),
      createdLast7Days: z.number(),
      createdLast30Days: z.number(),
      byStatus: z.array(z.object({ status: z.string(), label: z.string(), count: z.number() })),
    }),
    // As every project endpoint presents a project (presentProject).
    recentProjects: z.array(projectShape),
    users: z.object({
      total: z.number(),
      byRole: z.record(z.string(), z.number()),
      activeLast7Days: z.number(),
      activeLast30Days: z.number(),
    }),
    activity: z.array(z.object({ date: z.string(), count: z.number() })),
  }),
  errors: ["FORBIDDEN"],
});

export { adminProjectsQuery } from "~/domain/admin/admin-projects.schema";

export const adminProjects = contract({
  method: "GET",
  path: "/api/admin/projects",
  tag,
  summary: "All projects of the organization",
  description:
    "The same filters and sort as GET /api/projects (`search`, `status`, `priority`, `templateId` or `template`, `assignedToMe`, `assignedToId` or `assignee` — a user id or `none` —, `createdFrom`/`createdTo` or `dateFrom`/`dateTo` — YYYY-MM-DD or ISO date-time, inclusive —, `sortBy`, `sortOrder`, `limit`, `offset`), over every project of the organization. " +
    "`sort` is the spec's one-parameter form: a field (`name`, `createdAt`, `updatedAt`, `status`, `priority`) for ascending order, with a leading `-` for descending (`sort=-name`); it cannot be combined with `sortBy`/`sortOrder` (400). Default: `updatedAt`, newest first.",
  auth: "user",
  roles: ADMIN_ROLES,
  query: adminProjectsQuery,
  response: z.object({ projects: z.array(project.passthrough()), total: z.number(), limit: z.number(), offset: z.number() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

const perDayAi = z.object({ date: z.string(), calls: z.number(), inputTokens: z.number(), outputTokens: z.number(), tokens: z.number() });

export const adminUsageAnalytics = contract({
  method: "GET",
  path: "/api/admin/analytics/usage",
  tag,
  summary: "Usage analytics",
  description:
    "AI calls and tokens per day and projects created per day over the last `days` (7, 30 or 90; default 30; anything else is 400), optionally narrowed to `userId` / `projectId`. `templateMetrics=true` adds projects per template; `alerts=true` adds the plan usage warnings (≥80% warning, ≥100% critical).",
  auth: "user",
  roles: ADMIN_ROLES,
  query: usageAnalyticsSchema,
  response: z.object({
    days: z.number(),
    since: z.string(),
    filters: z.object({ userId: z.string().nullable(), projectId: z.string().nullable() }),
    ai: z.object({ calls: z.number(), inputTokens: z.number(), outputTokens: z.number(), tokens: z.number(), perDay: z.array(perDayAi) }),
    projects: z.object({ created: z.number(), perDay: z.array(z.object({ date: z.string(), count: z.number() })) }),
    templateMetrics: z.array(z.object({ templateId: z.string(), name: z.string(), projects: z.number(), projectsInPeriod: z.number() })).optional(),
    alerts: z.array(z.object({ metric: z.string(), message: z.string(), level: z.enum(["warning", "critical"]), percentage: z.number() })).optional(),
  }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const deleteAllProjects = contract({
  method: "POST",
  path: "/api/admin/settings/delete-all-projects",
  tag,
  summary: "Delete every project (irreversible)",
  description:
    "Admin or Owner. No body is needed. An optional `confirmName` is a safety catch: when sent it must equal the organization's name (else 400 VALIDATION_ERROR and nothing is deleted). One transaction; audited; one project.deleted event per project.",
  auth: "user",
  roles: ADMIN_ROLES,
  scope: "admin",
  body: dangerApiSchema,
  response: z.object({ success: z.literal(true), deleted: z.number() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const deleteOrganization = contract({
  method: "POST",
  path: "/api/admin/settings/delete-organization",
  tag,
  summary: "Delete the organization (irreversible)",
  description:
    "Owner only. No body is needed; an optional `confirmName`, when sent, must equal the organization's name (else 400 VALIDATION_ERROR and nothing is deleted). Deletes the organization and everything it owns in one transaction; members' sessions move to another organization of theirs or end. A platform-level audit entry (orgId null) records it.",
  auth: "user",
  roles: ["owner"],
  scope: "admin",
  body: dangerApiSchema,
  response: z.object({ success: z.literal(true), sessionsMoved: z.number(), sessionsEnded: z.number() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});
