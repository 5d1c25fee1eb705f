import { z } from "zod/v4";
import {
  adminTemplatesQuery,
  createTemplateSchema,
  listTemplatesQuery,
  restoreSchema,
  TEMPLATE_TYPES,
  updateTemplateSchema,
  VISIBILITIES,
} from "~/domain/templates/templates.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Templates";
const params = z.object({ id: z.string() });

export const templateShape = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  templateType: z.enum(TEMPLATE_TYPES),
  visibility: z.enum(VISIBILITIES),
  systemPrompt: z.string().describe('"[Protected]" on system and marketplace templates unless the caller is a superadmin'),
  initialQuestion: z.string(),
  sections: z.array(z.string()),
  tags: z.array(z.string()),
  features: z.array(z.string()),
  isActive: z.boolean(),
  isFeatured: z.boolean(),
  pricingTier: z.string(),
  usageCount: z.number(),
  orgId: z.string().nullable(),
  createdById: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const protectedNote = ' On system and marketplace templates `systemPrompt` is the literal "[Protected]" unless the caller is a superadmin (SUPERADMIN_EMAILS).';

export const listTemplates = contract({
  method: "GET",
  path: "/api/templates",
  tag,
  summary: "Templates you may use: public (system, marketplace), your organization's and your personal ones",
  description: `Active templates only. \`type\` filters by templateType, \`category\` exactly, \`search\` in name, description and tags.${protectedNote}`,
  auth: "user",
  query: listTemplatesQuery,
  response: z.object({ templates: z.array(templateShape) }),
});

export const getTemplate = contract({
  method: "GET",
  path: "/api/templates/{id}",
  tag,
  summary: "Get a template",
  description: `404 for templates you may not use.${protectedNote}`,
  auth: "user",
  params,
  response: templateShape,
  errors: ["NOT_FOUND"],
});

export const templateVersions = contract({
  method: "GET",
  path: "/api/templates/{id}/versions",
  tag,
  summary: "Every version of a template, newest first",
  description: `Organization owners and admins (and a personal template's creator); superadmins for system and marketplace templates. Each version holds a \`snapshot\` of the template's fields.${protectedNote}`,
  auth: "user",
  params,
  response: z.object({
    versions: z.array(
      z.object({
        id: z.string(),
        number: z.number(),
        note: z.string().nullable(),
        createdAt: z.string(),
        createdBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
        snapshot: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const restoreTemplate = contract({
  method: "POST",
  path: "/api/templates/{id}/restore",
  tag,
  summary: "Restore a version (recorded as a new version)",
  auth: "user",
  params,
  body: restoreSchema,
  response: templateShape,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const adminListTemplates = contract({
  method: "GET",
  path: "/api/admin/templates",
  tag,
  summary: "Templates you administer, with filters, sorting and paging",
  description:
    "Owners and admins see their organization's templates plus public ones; superadmins see all. sortBy: name, createdAt, updatedAt (default), usageCount, category.",
  auth: "user",
  query: adminTemplatesQuery,
  response: z.object({ templates: z.array(templateShape), total: z.number(), limit: z.number(), offset: z.number() }),
  errors: ["FORBIDDEN"],
});

export const createTemplate = contract({
  method: "POST",
  path: "/api/admin/templates",
  tag,
  summary: "Create a template",
  description:
    "name, description and category are required. templateType defaults to organization for owners/admins and personal for members; system and marketplace need a superadmin, as do isFeatured and pricingTier. sections, tags and features are string arrays. Counts against the plan's templates limit (personal and organization templates).",
  auth: "user",
  body: createTemplateSchema,
  successStatus: 201,
  response: templateShape,
  errors: ["FORBIDDEN", "LIMIT_REACHED"],
});

export const updateTemplate = contract({
  method: "PATCH",
  path: "/api/admin/templates/{id}",
  tag,
  summary: "Update a template (partial); every change creates a version",
  description: "System and marketplace templates: superadmins only (403). Optional `note` labels the version.",
  auth: "user",
  params,
  body: updateTemplateSchema,
  response: templateShape,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const deleteTemplate = contract({
  method: "DELETE",
  path: "/api/admin/templates/{id}",
  tag,
  summary: "Delete a template",
  description: "Projects made from it keep working; their detail then shows no template.",
  auth: "user",
  params,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});
