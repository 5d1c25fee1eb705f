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

/** Where a thread's quoted passage is in the current PRD (comment-anchors.server.ts). */
export const ANCHOR_STATUSES = ["anchored", "section", "lost"] as const;
export type AnchorStatus = (typeof ANCHOR_STATUSES)[number];
/** The most people `GET …/comments/mentionable` lists. */
export const MENTIONABLE_MAX = 200;

export const QUOTE_MAX = 500;
export const QUOTE_CONTEXT_MAX = 100;

/**
 * The passage a comment is on, as the reader sees it (rendered text, not
 * Markdown), with the text just before and after it to tell repeated
 * passages apart.
 */
export const commentAnchorSchema = z.object({
  quote: z
    .string({ error: "anchor.quote is required" })
    .trim()
    .min(1, "Quote the passage the comment is on")
    .max(QUOTE_MAX, `A quote can be at most ${QUOTE_MAX} characters`),
  prefix: z.string().max(QUOTE_CONTEXT_MAX, `prefix can be at most ${QUOTE_CONTEXT_MAX} characters`).optional(),
  suffix: z.string().max(QUOTE_CONTEXT_MAX, `suffix can be at most ${QUOTE_CONTEXT_MAX} characters`).optional(),
});
export type CommentAnchorInput = z.infer<typeof commentAnchorSchema>;

export const createCommentSchema = z
  .object({
    content: commentContent,
    parentId: z.preprocess(emptyToUndefined, id.optional()),
    section: optionalText(200),
    blockId: optionalText(200),
    anchor: commentAnchorSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.parentId !== undefined && v.anchor !== undefined) {
      ctx.addIssue({ code: "custom", path: ["anchor"], message: "A reply is on its thread's passage: send anchor with the thread's first comment only" });
    }
  })
  // A reply takes its thread's anchor (the properties are named again for the linter, which reads a `not` alone).
  .meta({ not: { properties: { parentId: {}, anchor: {} }, required: ["parentId", "anchor"] } });
export type CreateCommentInput = z.infer<typeof createCommentSchema>;

export const updateCommentSchema = z
  .object({
    content: commentContent.optional(),
    resolved: z.boolean({ error: "resolved must be true or false" }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.content === undefined && v.resolved === undefined) {
      ctx.addIssue({ code: "custom", path: ["content"], message: "Send content, resolved or both" });
    }
  })
  .meta({ anyOf: [{ required: ["content"] }, { required: ["resolved"] }] });
export type UpdateCommentInput = z.infer<typeof updateCommentSchema>;

// ---------------------------------------------------------------- sharing

/**
 * `password`: a string sets it, `null` removes it, absent keeps the current one.
 * `expiresAt`: an ISO date-time in the future, `null` removes it, absent keeps it.
 */
export const shareSchema = z.object({
  password: z.string().min(4, "A share password needs at least 4 characters").max(200).nullable().optional(),
  expiresAt: z.iso.datetime({ offset: true, error: "expiresAt must be an ISO 8601 date-time, e.g. 2030-01-31T12:00:00Z" }).nullable().optional(),
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
  /** Only the reviewer's personal link may decide this review request, not the project's share link. */
  personalLinkOnly: bool.default(false),
  /** Mail the personal review link to `stakeholderEmail` now (needs the address and a review request). */
  sendLink: bool.default(false),
});
export type CreateViewInput = z.infer<typeof createViewSchema>;

/** The sharing page's review request form: the reviewer is named (the API leaves the name optional). */
export const reviewRequestFormSchema = createViewSchema.extend({
  stakeholderName: z
    .string({ error: "Enter the reviewer's name" })
    .trim()
    .min(1, "Enter the reviewer's name")
    .max(200, "The name can be at most 200 characters"),
});

export const REVIEW_DECISIONS = ["approved", "rejected"] as const;

export const reviewByTokenQuery = z.object({
  token: z.string({ error: "token is required" }).trim().min(1, "token is required").max(200),
});

export const resolveReviewSchema = z.object({
  /** The project's share token, or the reviewer's personal review token. */
  token: z.string({ error: "token is required" }).trim().min(1, "token is required").max(200),
  reviewId: id,
  status: z.enum(REVIEW_DECISIONS, { error: "status must be approved or rejected" }),
  feedback: optionalText(5000),
  reviewerName: optionalText(200),
});
export type ResolveReviewInput = z.infer<typeof resolveReviewSchema>;

/** The personal review page's form: the reviewer's decision and feedback (their name comes from the request). */
export const reviewDecisionSchema = z.object({
  status: z.enum(REVIEW_DECISIONS, { error: "Choose Approve or Request changes" }),
  feedback: z.preprocess(emptyToUndefined, z.string().trim().max(5000, "Keep the feedback under 5,000 characters").optional()),
});

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
