import { z } from "zod/v4";
import {
  adminSubmissionsQuery,
  createSubmissionSchema,
  fromMarketplaceSchema,
  quickStartSchema,
  reviewSchema,
  SUBMISSION_STATUSES,
} from "~/domain/templates/submissions.schema";
import { marketplaceQuery } from "~/domain/templates/templates.schema";
import { contract } from "../contract";
import { projectDetailShape } from "./projects";
import { templateShape } from "./templates";

const tag = "Marketplace";
const protectedNote = ' `systemPrompt` is the literal "[Protected]" unless the caller is a platform superadmin (send a session or API key to be recognised).';

export const submissionShape = z.object({
  id: z.string(),
  templateId: z.string().nullable().describe("null once the submitted template is deleted"),
  templateName: z.string().describe("the template's name when it was submitted"),
  notes: z.string().nullable(),
  status: z.enum(SUBMISSION_STATUSES),
  reason: z.string().nullable().describe("the reviewer's reason (required to reject)"),
  reviewedAt: z.string().nullable(),
  marketplaceTemplateId: z.string().nullable().describe("the published marketplace template, once approved"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const listMarketplace = contract({
  method: "GET",
  path: "/api/marketplace-templates",
  tag,
  summary: "Browse the public template marketplace",
  description: `Public. Active templates with visibility public (system and marketplace). Filters: \`category\` (exact), \`search\` (name, description, tags, category), \`featured\` (true/false), \`pricingTier\`. \`sort\`: popular (usageCount desc, default), newest (createdAt desc), name (A–Z). \`limit\` 1–100 (default 50), \`offset\`.${protectedNote}`,
  auth: "optional",
  query: marketplaceQuery,
  response: z.object({ templates: z.array(templateShape), total: z.number(), limit: z.number(), offset: z.number() }),
  errors: ["VALIDATION_ERROR"],
});

export const getMarketplaceTemplate = contract({
  method: "GET",
  path: "/api/marketplace-templates/{templateId}",
  tag,
  summary: "A public marketplace template",
  description: `Public. 404 unless the template is public and active.${protectedNote}`,
  auth: "optional",
  params: z.object({ templateId: z.string() }),
  response: templateShape,
  errors: ["NOT_FOUND"],
});

export const createSubmission = contract({
  method: "POST",
  path: "/api/template-submissions",
  tag,
  summary: "Submit a template to the marketplace",
  description:
    "The template must be your own personal template, or (as owner or admin) one of your organization's templates: otherwise 403; a template you cannot see is 404. One pending submission per template (409 CONFLICT). Emits `template.submitted`.",
  heldBy: "template_publish",
  auth: "user",
  body: createSubmissionSchema,
  successStatus: 201,
  response: z.object({ submission: submissionShape }),
  errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const listSubmissions = contract({
  method: "GET",
  path: "/api/template-submissions",
  tag,
  summary: "Your own template submissions, newest first, with their review status",
  auth: "user",
  response: z.object({ submissions: z.array(submissionShape) }),
});

export const adminListSubmissions = contract({
  method: "GET",
  path: "/api/admin/template-submissions",
  tag,
  summary: "Template submissions to review (platform superadmins)",
  description: "Newest first; `status` filters (pending, approved, rejected); `limit` 1–200 (default 50), `offset`. Non-superadmins: 403.",
  auth: "user",
  query: adminSubmissionsQuery,
  response: z.object({
    submissions: z.array(
      submissionShape.extend({
        submitter: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
        organization: z.object({ id: z.string(), name: z.string() }).nullable(),
      }),
    ),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
  errors: ["FORBIDDEN"],
});

export const reviewSubmission = contract({
  method: "POST",
  path: "/api/admin/template-submissions/{submissionId}/review",
  tag,
  summary: "Approve or reject a submission (platform superadmins)",
  scope: "admin",
  description:
    "`approve` publishes a copy of the template's current content as a public, free, not-featured `marketplace` template (its creator is the submitter) and records `marketplaceTemplateId`. `reject` needs a `reason`. A submission that is not pending: 409 CONFLICT. Emits `template.reviewed`.",
  auth: "user",
  params: z.object({ submissionId: z.string() }),
  body: reviewSchema,
  response: z.object({ submission: submissionShape }),
  errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const quickStart = contract({
  method: "POST",
  path: "/api/projects/quick-start",
  tag: "Projects",
  summary: "Create a project and get the first question to answer",
  description:
    "`useCase` becomes the project description. `initialQuestion` is the template's first question, or a generic one without a template. A template you may not use: 400 VALIDATION_ERROR. Counts against the projects limit.",
  auth: "user",
  body: quickStartSchema,
  successStatus: 201,
  response: z.object({ project: projectDetailShape, initialQuestion: z.string() }),
  errors: ["FORBIDDEN", "LIMIT_REACHED"],
});

export const fromMarketplace = contract({
  method: "POST",
  path: "/api/projects/from-marketplace",
  tag: "Projects",
  summary: "Copy a marketplace template into your organization and start a project from it",
  description:
    "The copy is an organization template for owners and admins, a personal template for members, and counts against the plan's templates limit (403 LIMIT_REACHED, metric \"templates\"). `name` defaults to the template's name. The marketplace template's usageCount goes up by one. The copy's systemPrompt is \"[Protected]\" unless you are a superadmin: the marketplace prompt is never copied out. Not a public active template: 404.",
  auth: "user",
  body: fromMarketplaceSchema,
  successStatus: 201,
  response: z.object({ project: projectDetailShape, template: templateShape }),
  errors: ["FORBIDDEN", "NOT_FOUND", "LIMIT_REACHED"],
});
