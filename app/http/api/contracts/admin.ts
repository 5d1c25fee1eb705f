// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { addEntrySchema, deleteEntrySchema } from "~/domain/allowlist/allowlist.server";
import { auditFilterSchema } from "~/domain/audit/query.server";
import { contract } from "../contract";
import { queryBoolean, success } from "./shapes";

const auditTag = "Audit log";
const allowTag = "IP allowlist";

const logShape = z.object({
  id: z.string(),
  action: z.string(),
  category: z.string(),
  severity: z.enum(["info", "warning", "critical"]),
  actor: z.object({ id: z.string().nullable(), email: z.string().nullable() }).nullable(),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable() }).nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

const filterDoc =
  "Filters: `action` (exact; `auth.*` matches a prefix), `severity` (info, warning, critical), `category` (auth, member, team, billing, security, project, integration, settings ...), `actor` (user id or e-mail), `startDate`/`endDate` (ISO date or date-time; a date-only endDate includes that day; `from`/`to` are aliases).";

export const listAuditLogs = contract({
  method: "GET",
  path: "/api/admin/audit-logs",
  tag: auditTag,
  summary: "Search the organization's audit log",
  description: `${filterDoc} Newest first; \`limit\` 1–200 (default 50), \`offset\`. With \`summary=true\` returns \`{summary: {total, byCategory, bySeverity, byAction, byDay: [{date, count}]}}\` for the same filters instead of the rows. Owner/admin only.`,
  auth: "user",
  roles: ADMIN_ROLES,
  query: auditFilterSchema.extend({
    summary: queryBoolean.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  }),
  response: z.union([
    z.object({ logs: z.array(logShape), total: z.number(), limit: z.number(), offset: z.number() }),
    z.object({
      summary: z.object({
        total: z.number(),
        byCategory: z.record(z.string(), z.number()),
        bySeverity: z.record(z.string(), z.number()),
        byAction: z.record(z.string(), z.number()),
        byDay: z.array(z.object({ date: z.string(), count: z.number() })),
      }),
    }),
  ]),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const exportAuditLogs = contract({
  method: "GET",
  path: "/api/admin/audit-logs/export",
  tag: auditTag,
  summary: "Download the filtered audit log (CSV or JSON file)",
  description: `${filterDoc} \`format\`: csv (default) or json. A \`Content-Disposition: attachment\` file, newest first, at most 10,000 rows. CSV cells are always quoted; cells starting with = + - @ TAB or CR are prefixed with a single quote (no formula injection). The export itself is audited (audit_log.exported).`,
  auth: "user",
  roles: ADMIN_ROLES,
  writesOnGet: true,
  query: auditFilterSchema.extend({ format: z.enum(["csv", "json"]).default("csv") }),
  responseType: ["text/csv", "application/json"],
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

const entryShape = z.object({ id: z.string(), cidr: z.string(), label: z.string(), createdAt: z.string() });

export const listIpAllowlist = contract({
  method: "GET",
  path: "/api/admin/ip-allowlist",
  tag: allowTag,
  summary: "List the IP allowlist",
  description:
    "Enterprise plan, owner/admin. While the list is non-empty every request of the organization's members (session or API key, API and pages) from another address gets 403 IP_NOT_ALLOWED. `currentIp` is the caller's address as the server sees it.",
  auth: "user",
  roles: ADMIN_ROLES,
  plan: "enterprise",
  response: z.object({ entries: z.array(entryShape), currentIp: z.string().nullable() }),
  errors: ["FORBIDDEN", "PLAN_UPGRADE_REQUIRED"],
});

export const addIpAllowlistEntry = contract({
  method: "POST",
  path: "/api/admin/ip-allowlist",
  tag: allowTag,
  summary: "Add an address or CIDR block",
  description:
    "`cidr`: IPv4/IPv6 address or CIDR (stored normalised: host bits cleared, IPv4-mapped IPv6 as IPv4, a bare address as /32 or /128). `label` up to 100 chars. 409 CONFLICT for a duplicate, or when the resulting list would not cover the caller's own address (lock-out guard). At most 200 entries.",
  auth: "user",
  roles: ADMIN_ROLES,
  plan: "enterprise",
  body: addEntrySchema,
  successStatus: 201,
  response: z.object({ entry: entryShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "PLAN_UPGRADE_REQUIRED", "CONFLICT"],
});

export const deleteIpAllowlistEntry = contract({
  method: "DELETE",
  path: "/api/admin/ip-allowlist",
  tag: allowTag,
  summary: "Remove an allowlist entry",
  description: "Body `{id}`. 409 CONFLICT when the remaining (non-empty) list would no longer cover the caller's address.",
  auth: "user",
  roles: ADMIN_ROLES,
  plan: "enterprise",
  body: deleteEntrySchema,
  response: success,
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "PLAN_UPGRADE_REQUIRED", "NOT_FOUND", "CONFLICT"],
});
