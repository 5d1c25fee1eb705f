import { z } from "zod/v4";
import {
  ANCHOR_STATUSES,
  addCollaboratorSchema,
  COLLABORATOR_ROLES,
  createCommentSchema,
  createLinkSchema,
  createViewSchema,
  LINK_TYPES,
  MENTIONABLE_MAX,
  resolveReviewSchema,
  reviewByTokenQuery,
  shareSchema,
  updateCommentSchema,
} from "~/domain/collaboration/collaboration.schema";
import { PROJECT_STATUSES } from "~/domain/projects/projects.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Collaboration";
const params = z.object({ projectId: z.string() });
const person = z.object({ id: z.string(), name: z.string() });
const by = z.object({ id: z.string(), name: z.string().nullable() }).nullable();

// ---------------------------------------------------------------- comments

const commentShape = z.object({
  id: z.string(),
  content: z.string(),
  parentId: z.string().nullable(),
  section: z.string().nullable(),
  blockId: z.string().nullable(),
  mentions: z.array(person),
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  editedAt: z.string().nullable(),
  deleted: z.boolean(),
  anchor: z
    .object({
      quote: z.string(),
      prefix: z.string().nullable(),
      suffix: z.string().nullable(),
      status: z.enum(ANCHOR_STATUSES),
    })
    .nullable()
    .describe(
      "The passage of the PRD the thread is on (a reply shows its thread's), or null. `status`, worked out against the current PRD: `anchored` (the passage is still there, perhaps moved or slightly edited), `section` (gone, but the comment's section still exists), `lost`.",
    ),
  resolved: z.boolean().describe("Whether the thread is resolved (a reply shows its thread's state)."),
  resolvedAt: z.string().nullable(),
  resolvedBy: person.nullable(),
});
const commentParams = params.extend({ commentId: z.string() });

export const listComments = contract({
  method: "GET",
  path: "/api/projects/{projectId}/comments",
  tag,
  summary: "Threaded comments",
  description:
    "Top-level comments oldest first, each with `replies` (oldest first). A deleted comment that still has replies stays as `deleted: true` with empty content, no mentions and `user: null`.",
  auth: "user",
  params,
  response: z.object({ comments: z.array(commentShape.extend({ replies: z.array(commentShape) })) }),
  errors: ["NOT_FOUND"],
});

export const createComment = contract({
  method: "POST",
  path: "/api/projects/{projectId}/comments",
  tag,
  summary: "Comment or reply",
  description:
    "`parentId` replies to a comment of the same project (a reply to a reply joins the top-level thread; a reply without `section`/`blockId` takes the thread's). `anchor` quotes the passage a thread is on, as the reader sees it (rendered text, not Markdown; `prefix`/`suffix`: the text just before and after it); without `section`, the comment goes in the section whose text contains the passage. A reply is on its thread's passage: an `anchor` with `parentId` is 400 (path `anchor`). `@ana@example.com` (or `@Ana Name`) mentions a member of the organization; other addresses stay plain text. Only mentioned members who can read the project are notified and listed in `mentions`; the others are returned in `notNotified` (the notification would reveal the project to them). Owners, admins and members comment on projects they can read; viewers need an editor or commenter collaboration. Emits `comment.created`.",
  auth: "user",
  params,
  body: createCommentSchema,
  successStatus: 201,
  response: z.object({ comment: commentShape, notNotified: z.array(person) }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const updateComment = contract({
  method: "PATCH",
  path: "/api/projects/{projectId}/comments/{commentId}",
  tag,
  summary: "Edit a comment (author only), resolve or reopen a thread",
  description:
    "Send `content`, `resolved` or both (neither: 400). `content`: the author only (others 403); sets `editedAt` and resolves mentions again (readers only; the others are returned in `notNotified`). `resolved`: anyone who may comment on the project resolves (`true`) or reopens (`false`) a thread through its top-level comment; a reply is 400 (path `resolved`). Recorded in the activity feed (`comment.resolved`, `comment.reopened`), no event. A deleted comment is 404, except that a thread start kept for its replies may still be resolved or reopened.",
  auth: "user",
  params: commentParams,
  body: updateCommentSchema,
  response: z.object({ comment: commentShape, notNotified: z.array(person) }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const listMentionable = contract({
  method: "GET",
  path: "/api/projects/{projectId}/comments/mentionable",
  tag,
  summary: "People who may be @mentioned",
  description: `The members of the project's organization who can read the project (only they are notified of a mention), by name, at most ${MENTIONABLE_MAX}. Any reader of the project may ask.`,
  auth: "user",
  params,
  response: z.object({ users: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })) }),
  errors: ["NOT_FOUND"],
});

export const deleteComment = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/comments/{commentId}",
  tag,
  summary: "Delete a comment (author, owner or admin)",
  description:
    "A comment with replies is kept as `deleted: true` with empty content so the thread stays readable; one without replies is removed (and a deleted thread start goes with its last reply).",
  auth: "user",
  params: commentParams,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

// ---------------------------------------------------------------- sharing

const shareShape = z.object({
  enabled: z.boolean(),
  shareToken: z.string().nullable(),
  shareUrl: z.string().nullable(),
  hasPassword: z.boolean(),
  expiresAt: z.string().nullable(),
});

export const getShare = contract({
  method: "GET",
  path: "/api/projects/{projectId}/share",
  tag,
  summary: "Share link settings",
  description: "`enabled: false` with nulls when the project is not shared. Needs the right to manage the project.",
  auth: "user",
  params,
  response: shareShape,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const enableShare = contract({
  method: "POST",
  path: "/api/projects/{projectId}/share",
  tag,
  summary: "Turn on the share link, or change its password and expiry",
  description:
    "201 with a new token the first time (emits `share.enabled`); 200 when the project is already shared: the token stays, `password` (string sets, `null` removes, absent keeps) and `expiresAt` (future ISO date-time, `null` removes, absent keeps) change. The link gives read-only access to project detail, PRD, status history and activity through `x-share-token` (plus `x-share-password`).",
  auth: "user",
  params,
  body: shareSchema,
  successStatus: 201,
  alsoSuccess: [200],
  response: shareShape,
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const revokeShare = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/share",
  tag,
  summary: "Revoke the share link",
  description: "The old token answers 401 INVALID_TOKEN from then on. 404 when the project is not shared. Emits `share.revoked`.",
  auth: "user",
  params,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

// ---------------------------------------------------------------- collaborators

const collaboratorShape = z.object({
  id: z.string(),
  role: z.enum(COLLABORATOR_ROLES),
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  addedBy: by,
  createdAt: z.string(),
});

export const listCollaborators = contract({
  method: "GET",
  path: "/api/projects/{projectId}/collaborators",
  tag,
  summary: "Collaborators, oldest first",
  auth: "user",
  params,
  response: z.object({ collaborators: z.array(collaboratorShape) }),
  errors: ["NOT_FOUND"],
});

export const addCollaborator = contract({
  method: "POST",
  path: "/api/projects/{projectId}/collaborators",
  tag,
  summary: "Add a member of the organization as collaborator",
  description:
    "`role`: editor (edits), commenter (reads and comments), viewer (reads). The e-mail must belong to a member of the organization (else 400 with `details[].path` = `email`); already a collaborator: 409 CONFLICT with `collaboratorId`.",
  auth: "user",
  params,
  body: addCollaboratorSchema,
  successStatus: 201,
  response: z.object({ collaborator: collaboratorShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const removeCollaborator = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/collaborators/{collaboratorId}",
  tag,
  summary: "Remove a collaborator",
  description: "Those who manage the project remove anyone; a collaborator may remove themselves.",
  auth: "user",
  params: params.extend({ collaboratorId: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

// ---------------------------------------------------------------- stakeholder views

const viewShape = z.object({
  id: z.string(),
  name: z.string(),
  stakeholderName: z.string().nullable(),
  stakeholderEmail: z.string().nullable(),
  audience: z.string().nullable(),
  sections: z.array(z.string()),
  notes: z.string().nullable(),
  kind: z.enum(["view", "review", "ai_review"]),
  payload: z.record(z.string(), z.unknown()).describe("For `ai_review` (saved by POST /api/ai/coach with projectId): `{review, model}`; otherwise `{}`"),
  reviewStatus: z.enum(["pending", "approved", "rejected"]).nullable(),
  feedback: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedByName: z.string().nullable(),
  resolvedVia: z
    .enum(["personal_link", "share_link"])
    .nullable()
    .describe(
      "Which link the latest decision came through: the reviewer's personal link (named reviewer) or the share link (`resolvedByName` as typed, not verified)",
    ),
  resolvedByEmail: z
    .string()
    .nullable()
    .describe(
      "The address the personal link had been mailed to, when the latest decision came through it (confirmed by e-mail); null on the share-link listing",
    ),
  personalLinkOnly: z.boolean().describe("Only the reviewer's personal link may decide this request; the share link gets 403"),
  reviewUrl: z
    .string()
    .nullable()
    .describe("The reviewer's personal review link (`{APP_URL}/review/{token}`): only for callers who may manage the project; null elsewhere"),
  linkSentAt: z.string().nullable().describe("When the personal link was last mailed to `stakeholderEmail`"),
  createdAt: z.string(),
});

export const listStakeholderViews = contract({
  method: "GET",
  path: "/api/projects/{projectId}/stakeholder-views",
  tag,
  summary: "Stakeholder views and review requests, oldest first",
  auth: "user",
  params,
  response: z.object({ views: z.array(viewShape) }),
  errors: ["NOT_FOUND"],
});

export const createStakeholderView = contract({
  method: "POST",
  path: "/api/projects/{projectId}/stakeholder-views",
  tag,
  summary: "Create a stakeholder view",
  description:
    "`requestReview` (default true) makes it a review request (`kind: review`, `reviewStatus: pending`) with its own personal review link (`reviewUrl`), which the stakeholder opens without an account to approve or request changes under their name; the share link decides it too (POST /api/stakeholder-review/resolve) unless `personalLinkOnly`. `sendLink: true` mails the personal link to `stakeholderEmail` (needed, else 400 with `details[].path` = `stakeholderEmail`) and sets `linkSentAt`.",
  auth: "user",
  params,
  body: createViewSchema,
  successStatus: 201,
  response: z.object({ view: viewShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const sendStakeholderReviewLink = contract({
  method: "POST",
  path: "/api/projects/{projectId}/stakeholder-views/{viewId}/send-link",
  tag,
  summary: "E-mail a reviewer their personal review link again",
  description:
    "Mails the review request's personal link to its `stakeholderEmail` (through the outbox without SMTP) and sets `linkSentAt`. Needs the right to manage the project. A plain view or unknown id: 404; a request without an e-mail address: 400 (`details[].path` = `stakeholderEmail`).",
  auth: "user",
  params: params.extend({ viewId: z.string() }),
  response: z.object({ view: viewShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const deleteStakeholderView = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/stakeholder-views/{viewId}",
  tag,
  summary: "Delete a stakeholder view",
  auth: "user",
  params: params.extend({ viewId: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

// ---------------------------------------------------------------- links

const linkShape = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  targetProjectId: z.string().nullable(),
  linkType: z.enum(LINK_TYPES),
  target: z.object({ id: z.string(), name: z.string(), status: z.enum(PROJECT_STATUSES) }).nullable(),
  createdBy: by,
  createdAt: z.string(),
});

export const listLinks = contract({
  method: "GET",
  path: "/api/projects/{projectId}/links",
  tag,
  summary: "Links, oldest first",
  description: "`target` is null for web links and for linked projects the caller cannot read.",
  auth: "user",
  params,
  response: z.object({ links: z.array(linkShape) }),
  errors: ["NOT_FOUND"],
});

export const createLink = contract({
  method: "POST",
  path: "/api/projects/{projectId}/links",
  tag,
  summary: "Link a web address or another project",
  description:
    "Exactly one of `url` (http or https) or `targetProjectId` (another project of the organization). `linkType` defaults to reference for addresses and relates_to for projects; `title` to the address or the project's name.",
  auth: "user",
  params,
  body: createLinkSchema,
  successStatus: 201,
  response: z.object({ link: linkShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const deleteLink = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/links/{linkId}",
  tag,
  summary: "Remove a link",
  auth: "user",
  params: params.extend({ linkId: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

// ---------------------------------------------------------------- public stakeholder review

const shareErrors = ["VALIDATION_ERROR", "INVALID_TOKEN", "SHARE_PASSWORD_REQUIRED", "SHARE_EXPIRED", "NOT_FOUND", "RATE_LIMITED"] as const;

export const reviewsByToken = contract({
  method: "GET",
  path: "/api/stakeholder-review/by-token",
  tag,
  summary: "Review requests of a shared project (public)",
  description:
    "`token` is the project's share token (send `x-share-password` when the link has a password): the stakeholder views that carry a review status, without personal links or e-mail addresses. Or a reviewer's personal review token: that one review request. Unknown tokens: 401; more than 30 a minute from one address: 429.",
  auth: "public",
  query: reviewByTokenQuery,
  response: z.object({
    project: z.object({ id: z.string(), name: z.string(), status: z.enum(PROJECT_STATUSES) }),
    reviews: z.array(viewShape),
  }),
  errors: [...shareErrors],
});

export const resolveReview = contract({
  method: "POST",
  path: "/api/stakeholder-review/resolve",
  tag,
  summary: "Approve or reject a review (public)",
  description:
    "`token` is the share token (and `x-share-password` when the link has one) or the reviewer's personal review token. A review already decided may be decided again: the latest decision and feedback win; emits `review.resolved`. Share token: recorded under `reviewerName` (or “A stakeholder”), `resolvedVia: share_link`; a review with `personalLinkOnly` is 403 FORBIDDEN (use the personal link); a reviewId of another project: 404. Personal token: recorded under the reviewer named on the request (`reviewerName` is ignored), `resolvedVia: personal_link`, `resolvedByEmail` when the link had been mailed; any other reviewId: 404; more than 20 decisions a minute: 429.",
  auth: "public",
  body: resolveReviewSchema,
  response: z.object({ review: viewShape }),
  errors: [...shareErrors, "FORBIDDEN"],
});
