import { z } from "zod/v4";
import { formBoolean } from "../form-fields";
import { email } from "../auth/auth.schema";

/** Input schemas of comments, sharing, collaborators, stakeholder views and links (API routes and UI forms). */

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const optionalText = (max: number) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());
const id = z.string().trim().min(1).max(100);

// ---------------------------------------------------------------- comments

export const COMMENT_MAX = 10_000;

const commentContent = z
  .string({ error: "Content is required" })
  .trim()
  .min(1, "Content is required")
  .max(COMMENT_MAX, `Content can be at most ${COMMENT_MAX} characters`);

export const createCommentSchema = z.object({
  content: commentContent,
  parentId: z.preprocess(emptyToUndefined, id.optional()),
  section: optionalText(200),
  blockId: optionalText(200),
});
export type CreateCommentInput = z.infer<typeof createCommentSchema>;

export const updateCommentSchema = z.object({ content: commentContent });
export type UpdateCommentInput = z.infer<typeof updateCommentSchema>;

// ---------------------------------------------------------------- sharing

/**
 * `password`: a string sets it, `null` removes it, absent keeps the current one.
 * `expiresAt`: an ISO date-time in the future, `null` removes it, absent keeps it.
 */
export const shareSchema = z.object({
  password: z
    .string()
    .min(4, "A share password needs at least 4 characters")
    .max(200)
    .nullable()
    .optional(),
  expiresAt: z.iso
    .datetime({ offset: true, error: "expiresAt must be an ISO 8601 date-time, e.g. 2030-01-31T12:00:00Z" })
    .nullable()
    .optional(),
});
export type ShareInput = z.infer<typeof shareSchema>;

// ---------------------------------------------------------------- collaborators

export const COLLABORATOR_ROLES = ["editor", "commenter", "viewer"] as const;

export const addCollaboratorSchema = z.object({
  email,
  role: z.enum(COLLABORATOR_ROLES, { error: `role must be one of ${COLLABORATOR_ROLES.join(", ")}` }),
});
export type AddCollaboratorInput = z.infer<typeof addCollaboratorSchema>;

// ---------------------------------------------------------------- stakeholder views

const bool = formBoolean;

export const createViewSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200),
  stakeholderName: optionalText(200),
  stakeholderEmail: z.preprocess(emptyToUndefined, email.optional()),
  audience: optionalText(200),
  sections: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  notes: optionalText(5000),
  requestReview: bool.default(true),
});
export type CreateViewInput = z.infer<typeof createViewSchema>;

export const REVIEW_DECISIONS = ["approved", "rejected"] as const;

export const reviewByTokenQuery = z.object({
  token: z.string({ error: "token is required" }).trim().min(1, "token is required").max(200),
});

export const resolveReviewSchema = z.object({
  token: z.string({ error: "token is required" }).trim().min(1, "token is required").max(200),
  reviewId: id,
  status: z.enum(REVIEW_DECISIONS, { error: "status must be approved or rejected" }),
  feedback: optionalText(5000),
  reviewerName: optionalText(200),
});
export type ResolveReviewInput = z.infer<typeof resolveReviewSchema>;

// ---------------------------------------------------------------- links

export const LINK_TYPES = ["reference", "design", "ticket", "document", "relates_to", "blocks", "depends_on"] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export const createLinkSchema = z
  .object({
    title: optionalText(300),
    url: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .max(2000)
        .pipe(z.url({ protocol: /^https?$/, error: "url must be an http or https address" }))
        .optional(),
    ),
    targetProjectId: z.preprocess(emptyToUndefined, id.optional()),
    linkType: z.enum(LINK_TYPES, { error: `linkType must be one of ${LINK_TYPES.join(", ")}` }).optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.url === undefined) === (v.targetProjectId === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [v.url === undefined ? "url" : "targetProjectId"],
        message: "Send exactly one of url or targetProjectId",
      });
    }
  });
export type CreateLinkInput = z.infer<typeof createLinkSchema>;
