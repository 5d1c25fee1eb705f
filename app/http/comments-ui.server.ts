import { createCommentSchema, updateCommentSchema } from "~/domain/collaboration/collaboration.schema";
import { createComment, deleteComment, listComments, updateComment } from "~/domain/collaboration/comments.server";
import type { Actor } from "~/domain/actor";
import { sections } from "~/utils/markdown.server";
import { formFailure, type FormValues } from "./ui.server";

/** Loader data for the comments panel beside a PRD. */
export async function commentsData(actor: Actor, projectId: string, prdContent: string) {
  return {
    comments: await listComments(actor, projectId),
    sections: sections(prdContent).map(({ id, title }) => ({ id, title })),
    me: actor.user.id,
    isAdmin: actor.role === "owner" || actor.role === "admin",
  };
}

/** Handles the panel's forms (create, edit and delete). */
export async function commentsAction(actor: Actor, projectId: string, values: FormValues) {
  try {
    if (values.intent === "comment-delete") {
      await deleteComment(actor, projectId, values.commentId ?? "");
      return { commentMessage: "Comment deleted." };
    }
    if (values.intent === "comment-edit") {
      await updateComment(actor, projectId, values.commentId ?? "", updateCommentSchema.parse(values));
      return { commentMessage: "Comment updated." };
    }
    await createComment(actor, projectId, createCommentSchema.parse(values));
    return { commentMessage: "Comment posted." };
  } catch (error) {
    return formFailure(error, values);
  }
}
