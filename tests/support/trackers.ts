import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";

/** A saved user-stories AI output of the project with this Markdown, as the AI tool keeps one; returns its id. */
export async function savedUserStories(projectId: string, createdById: string, content: string) {
  const id = newId();
  await db
    .insertInto("aiOutputs")
    .values({
      id,
      projectId,
      kind: "user_stories",
      variant: null,
      title: "User stories",
      content,
      data: null,
      model: "builtin",
      truncated: 0,
      createdById,
      createdAt: nowIso(),
    })
    .execute();
  return id;
}
