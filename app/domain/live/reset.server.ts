import { logger } from "~/utils/log.server";
import type { Actor } from "../actor";
import { forbidden } from "../errors";
import { currentPrd } from "../prd/prd.server";
import { projectAccess } from "../projects/access.server";
import { discardLiveDoc } from "./live-docs.server";
import { deleteStored } from "./store.server";

/**
 * "Reset live document from the last saved version": for a live document
 * that misbehaves (it will not open, or holds what no editor wrote), the
 * project's owner (or an organization owner or admin) drops its stored Yjs
 * state and updates. Open streams end; the browsers reconnect, and the next
 * stream seeds the document afresh from the PRD as saved, with a new epoch,
 * so every editor replaces its copy instead of merging the old one back.
 * Live edits not yet saved as a version are discarded. The document page
 * (/projects/:id/live-reset) and POST /api/projects/{id}/prd/live/reset
 * both call it.
 */
export async function resetLiveDocument(actor: Actor, projectId: string) {
  const access = await projectAccess(actor, projectId);
  if (!access.canDelete) throw forbidden("Only the project's owner or an organization owner or admin may reset the live document");
  await discardLiveDoc(projectId, () => deleteStored(projectId));
  const prd = await currentPrd(projectId);
  logger.info("[live] the live document was reset from the last saved version", {
    projectId,
    userId: actor.user.id,
    versionId: prd?.versionId ?? null,
  });
  return { reset: true as const, versionId: prd?.versionId ?? null, versionNumber: prd?.versionNumber ?? null };
}
