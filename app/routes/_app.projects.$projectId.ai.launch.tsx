import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { collect } from "~/ai/run.server";
import { LAUNCH_CONTENT_TYPES } from "~/ai/schemas";
import { newestOf, OutputList } from "~/components/ai/output-list";
import { useFailedRuns } from "~/components/ai/run-error";
import { StreamingToolForm } from "~/components/ai/tool-form";
import { FormAlert } from "~/components/forms";
import { launchContentSchema } from "~/domain/ai-tools/ai-tools.schema";
import { startLaunchContent } from "~/domain/ai-tools/writing.server";
import { outputsFor } from "~/http/ui/ai-outputs-ui.server";
import { aiToolPage, outputToolAction } from "~/http/ui/ai-ui.server";
import * as aiTools from "~/http/api/contracts/ai-tools";

const LABELS: Record<(typeof LAUNCH_CONTENT_TYPES)[number], string> = {
  blog_post: "Blog post",
  press_release: "Press release",
  social_media: "Social media posts",
  email_announcement: "Announcement e-mail",
  demo_script: "Demo script",
  changelog: "Changelog entry",
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { actor, project, prd } = await aiToolPage(request, context, params.projectId!);
  return {
    projectId: project.id,
    canEdit: project.permissions.canEdit,
    prdContent: prd?.content ?? "",
    outputs: await outputsFor(actor, project.id, ["launch_content"]),
  };
}

export const action = (args: ActionFunctionArgs) =>
  outputToolAction(args, "launch", aiTools.launchContent, async ({ actor, prd, project }, values) => {
    const input = launchContentSchema.parse({ content: prd?.content ?? "", contentType: values.contentType, projectId: project.id });
    await collect(await startLaunchContent(actor, input), args.request.signal);
  });

export default function Launch() {
  const { projectId, canEdit, prdContent, outputs } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const runs = useFailedRuns(failure);
  const lastGood = newestOf(outputs, "launch_content");
  return (
    <div className="stack">
      {canEdit ? (
        <section className="card" aria-labelledby="launch-heading">
          <h2 id="launch-heading">Launch content</h2>
          <p className="muted">Drafts grounded in the PRD; facts it does not state are left as [placeholders].</p>
          <StreamingToolForm
            intent="launch_content"
            failure={failure}
            lastGood={lastGood}
            onRunEnd={runs.onRunEnd}
            endpoint="/api/ai/launch-content"
            body={(f) => ({ content: prdContent, contentType: f.get("contentType"), projectId })}
            submitLabel="Write it"
            pendingLabel="Writing…"
            progressLabel="Launch content"
          >
            <div className="field">
              <label htmlFor="launch-type">What to write</label>
              <select id="launch-type" name="contentType" defaultValue="blog_post">
                {LAUNCH_CONTENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {LABELS[t]}
                  </option>
                ))}
              </select>
            </div>
          </StreamingToolForm>
        </section>
      ) : null}
      <section aria-labelledby="saved-launch-heading">
        <h2 id="saved-launch-heading">Saved drafts</h2>
        <FormAlert state={failure?.intent === "delete-output" ? failure : null} />
        <OutputList
          outputs={outputs}
          canEdit={canEdit}
          lastGoodIds={lastGood && runs.isFailed("launch_content") ? [lastGood.id] : []}
          empty="No launch content yet."
        />
      </section>
    </div>
  );
}
