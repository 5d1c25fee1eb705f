import { type ActionFunctionArgs, type AppLoadContext, redirect } from "@remix-run/node";
import { resolveProvider } from "~/ai/keys.server";
import { AppError } from "~/domain/errors";
import { getPrd } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import { deleteOutputIntent } from "./ai-outputs-ui.server";
import type { Guarded } from "../policy/guard.server";
import { underPolicy } from "./intent-action.server";
import { type FormValues, formFailure, formValues, orPageError, requireUiActor } from "./ui.server";

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

export type AiToolPage = Awaited<ReturnType<typeof aiToolPage>>;

/**
 * The form action of an AI tool page whose results are saved with the
 * project: "delete-output" removes one; anything else runs the tool under the
 * policy of its /api contract (`tool`, or the one for the posted intent: the
 * plan's AI rate and an AI slot held while it runs, as the API) and returns
 * to the page, which then lists the new result. Errors come back as the
 * form's failure.
 */
export async function outputToolAction(
  { request, context, params }: ActionFunctionArgs,
  page: string,
  tool: Guarded | ((values: FormValues) => Guarded),
  run: (loaded: AiToolPage, values: FormValues) => Promise<unknown>,
) {
  const values = await formValues(request);
  const projectId = params.projectId!;
  try {
    const loaded = await aiToolPage(request, context, projectId);
    if (values.intent === "delete-output") await deleteOutputIntent(loaded.actor, projectId, values);
    else await underPolicy(loaded.actor, typeof tool === "function" ? tool(values) : tool, values, () => run(loaded, values));
    return redirect(`/projects/${projectId}/ai/${page}`);
  } catch (error) {
    return formFailure(error, values, [], { intent: values.intent });
  }
}
