import { db } from "~/db.server";
import { type Actor, canWrite, requireWriter } from "../actor";
import { validationError } from "../errors";
import { requireEdit } from "../projects/access.server";
import { prdStories } from "./prd-stories.server";
import { parseStories } from "./stories";
import type { StorySourceInput } from "./story-source.schema";
import { previewStories } from "./sync.server";
import { sendStoriesSchema } from "./trackers.schema";

/**
 * The Send to tracker page's sources besides saved AI outputs
 * (docs/trackers.md, "Choosing the stories"): the PRD's own "User stories"
 * section, or Markdown pasted or sent from a selection in the editor. The
 * preview itself is `previewStories`, shared with the API.
 */

export const NO_PRD_STORIES =
  'This PRD has no user stories yet: add a "User stories" section (a ## heading) with a ### heading for each story, or paste the stories instead.';

const noStoriesIn = (from: StorySourceInput["from"]) =>
  `No stories found in the ${from === "editor" ? "selection" : "pasted text"}: a story is a heading (### Story title under a ## Epic heading, or ## Story title alone) followed by its "As a …" line and acceptance criteria.`;

/** Whether the actor's organization has a tracker connected (the editor then offers "Send selected stories to tracker"). */
export async function trackersConnected(actor: Actor) {
  if (!canWrite(actor)) return false;
  const row = await db.selectFrom("trackerConnections").select("id").where("orgId", "=", actor.org.id).limit(1).executeTakeFirst();
  return Boolean(row);
}

/**
 * The tracker and target to offer when none is chosen: the project's most
 * recent send (if its connection still exists), else the only connection.
 * The caller has checked the project is the actor's to read.
 */
export async function trackerDefaults(actor: Actor, projectId: string, chosen: { connectionId?: string; target?: string } = {}) {
  const connections = await db.selectFrom("trackerConnections").select("id").where("orgId", "=", actor.org.id).execute();
  const ids = new Set(connections.map((c) => c.id));
  let last = db
    .selectFrom("trackerIssues")
    .select(["connectionId", "target"])
    .where("projectId", "=", projectId)
    .where("orgId", "=", actor.org.id)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(1);
  if (chosen.connectionId) last = last.where("connectionId", "=", chosen.connectionId);
  else last = last.where("connectionId", "is not", null);
  const recent = await last.executeTakeFirst();
  const connectionId =
    chosen.connectionId ||
    (recent?.connectionId && ids.has(recent.connectionId) ? recent.connectionId : "") ||
    (connections.length === 1 ? connections[0]!.id : "");
  const target = chosen.target || (recent && recent.connectionId === connectionId ? recent.target : "");
  return { connectionId, target };
}

/** The Markdown of the chosen source, refused (next to its field) when it holds no story. */
async function markdownOf(actor: Actor, projectId: string, input: StorySourceInput) {
  if (input.source === "prd") {
    const markdown = await prdStories(actor, projectId);
    if (!markdown) throw validationError("source", NO_PRD_STORIES);
    return markdown;
  }
  const markdown = input.markdown?.trim() ?? "";
  if (!markdown) throw validationError("markdown", "Paste the stories as Markdown.");
  if (parseStories(markdown).length === 0) throw validationError("markdown", noStoriesIn(input.from));
  return markdown;
}

/**
 * The preview of the PRD's stories or of pasted Markdown: what would be
 * created or updated, with the Markdown to send back with the checked keys.
 * No side effects, and nothing is asked of the tracker.
 */
export async function previewPickedStories(actor: Actor, projectId: string, input: StorySourceInput) {
  requireWriter(actor, "Viewers cannot send stories to a tracker");
  const { project } = await requireEdit(actor, projectId);
  const markdown = await markdownOf(actor, project.id, input);
  const { connectionId, target } = await trackerDefaults(actor, project.id, input);
  if (!connectionId) throw validationError("connectionId", "Choose a tracker.");
  if (!target) throw validationError("target", "Choose where to create the issues, then preview them.");
  const preview = await previewStories(actor, project.id, sendStoriesSchema.parse({ connectionId, target, markdown }));
  return { preview, markdown };
}
