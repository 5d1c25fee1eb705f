import type { AppLoadContext } from "@remix-run/node";
import { resolveProvider } from "~/ai/keys.server";
import { AppError } from "~/domain/errors";
import { getPrd } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import { orPageError, requireUiActor } from "./ui.server";

/** What every AI tools page loads: the actor, the project, its PRD (or null) and who answers. */
export async function aiToolPage(request: Request, context: AppLoadContext, projectId: string) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, projectId));
  const [prd, resolved] = await Promise.all([
    getPrd(actor, project.id).catch((e) => {
      if (e instanceof AppError && e.status === 404) return null;
      throw e;
    }),
    resolveProvider({ userId: actor.user.id, orgId: actor.org.id }),
  ]);
  return {
    actor,
    project,
    prd,
    answeredBy: { source: resolved.source, provider: resolved.provider, model: resolved.model },
  };
}
