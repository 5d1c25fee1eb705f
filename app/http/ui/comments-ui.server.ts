import { createCommentSchema, updateCommentSchema } from "~/domain/collaboration/collaboration.schema";
import { createComment, deleteComment, listComments, updateComment } from "~/domain/collaboration/comments.server";
import { mentionableUsers } from "~/domain/collaboration/mentionable.server";
import type { Actor } from "~/domain/actor";
import { sections } from "~/utils/markdown.server";
import type { Guarded } from "../policy/guard.server";
import { underPolicy } from "./intent-action.server";
import { formFailure, type FormValues } from "./ui.server";

/** Loader data for the comments panel beside a PRD. */
export async function commentsData(actor: Actor, projectId: string, prdContent: string) {
  const [comments, mentionable] = await Promise.all([listComments(actor, projectId), mentionableUsers(actor, projectId)]);
  return {
    comments,
    sections: sections(prdContent).map(({ id, title }) => ({ id, title })),
    /** Who the comment box offers after `@` (the same list as GET …/comments/mentionable). */
    mentionable,
    me: actor.user.id,
    isAdmin: actor.role === "owner" || actor.role === "admin",
  };
}

const notNotifiedNote = (people: { name: string }[]) =>
  people.length
    ? ` ${people.map((p) => p.name).join(", ")} ${people.length === 1 ? "was" : "were"} not notified: they cannot open this project. Share it with them first.`
    : "";

/**
 * Handles the panel's forms (create, edit, delete, resolve and reopen), the
 * same domain calls as the API, under the policy of the /api operation each
 * mirrors (`operationOf`, named by the route). With JavaScript the panel posts
 * them through fetchers and shows `commentMessage` itself; without, the page
 * shows it.
 */
export async function commentsAction(actor: Actor, projectId: string, values: FormValues, operationOf: (intent: string) => Guarded) {
  try {
    return await underPolicy(actor, operationOf(values.intent ?? ""), values, async () => {
      if (values.intent === "comment-delete") {
        await deleteComment(actor, projectId, values.commentId ?? "");
        return { commentMessage: "Comment deleted." };
      }
      if (values.intent === "comment-edit") {
        const { notNotified } = await updateComment(actor, projectId, values.commentId ?? "", updateCommentSchema.parse({ content: values.content ?? "" }));
        return { commentMessage: `Comment updated.${notNotifiedNote(notNotified)}` };
      }
      if (values.intent === "comment-resolve" || values.intent === "comment-reopen") {
        const resolved = values.intent === "comment-resolve";
        await updateComment(actor, projectId, values.commentId ?? "", { resolved });
        return { commentMessage: resolved ? "Thread resolved." : "Thread reopened." };
      }
      const { notNotified } = await createComment(actor, projectId, createCommentSchema.parse(values));
      return { commentMessage: `Comment posted.${notNotifiedNote(notNotified)}` };
    });
  } catch (error) {
    return formFailure(error, values);
  }
}
