import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FieldNotes, FormAlert } from "~/components/forms";
import { AppError, validationError } from "~/domain/errors";
import { resetLiveDocument } from "~/domain/live/reset.server";
import { getPrd } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import * as live from "~/http/api/contracts/live";
import { redirectWithNotice } from "~/http/ui/flash.server";
import { guarded, intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";

/**
 * "Reset live document from the last saved version" (docs/projects.md, "Live
 * editing"): the confirmation step, then the same domain call as POST
 * /api/projects/{id}/prd/live/reset. A plain page and form, so it works with
 * JavaScript off, and when the live editor itself will not open.
 */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  if (!project.permissions.canDelete) {
    throw new Response("Only the project's owner or an organization owner or admin may reset the live document", { status: 403 });
  }
  const prd = await getPrd(actor, project.id).catch((e) => {
    if (e instanceof AppError && e.status === 404) return null;
    throw e;
  });
  return { projectId: project.id, versionNumber: prd?.versionNumber ?? null };
}

export const action = intentAction({
  reset: guarded(
    live.postLiveReset,
    async ({ actor, values, params }) => {
      if (values.confirm !== "yes") throw validationError("confirm", "Tick the box to confirm");
      const result = await resetLiveDocument(actor, params.projectId!);
      const from = result.versionNumber ? `version ${result.versionNumber}` : "the empty document (no version was saved yet)";
      return redirectWithNotice(`/projects/${params.projectId}`, `The live document was rebuilt from ${from}. Open editors reconnect and load it.`);
    },
    () => ({}),
  ),
});

export default function LiveReset() {
  const { projectId, versionNumber } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = result && "formError" in result ? result : null;
  const confirmError = failure?.fieldErrors?.confirm;
  return (
    <section className="card" aria-labelledby="live-reset-heading" style={{ maxWidth: 680 }}>
      <h2 id="live-reset-heading">Reset live document from the last saved version</h2>
      <p>
        The live document is what the editors on the Document page share while they type. If it no longer opens, or shows something nobody wrote, rebuild it
        from {versionNumber ? `the last saved version (v${versionNumber})` : "the saved PRD"}.
      </p>
      <p className="muted">
        Changes typed since that version and not yet saved as a version are discarded. Everyone editing is disconnected for a moment and then sees the saved
        version. The version history is not changed.
      </p>
      <FormAlert state={failure} />
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="reset" />
        <label className="checkbox">
          <input
            type="checkbox"
            name="confirm"
            value="yes"
            required
            aria-invalid={confirmError ? true : undefined}
            aria-describedby={confirmError ? "field-confirm-error" : undefined}
          />{" "}
          I understand that unsaved live changes are discarded
        </label>
        <FieldNotes id="field-confirm" error={confirmError} />
        <div className="inline">
          <button className="btn btn-danger" type="submit">
            Reset live document from the last saved version
          </button>
          <Link className="btn btn-secondary" to={`/projects/${projectId}`}>
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}
