import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, data as withHeaders, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormState, FormAlert } from "~/components/forms";
import { DeliveryBar, StateBadge } from "~/components/trackers/delivery";
import { RefreshStates, refreshNotice } from "~/components/trackers/refresh-states";
import { type PickerData, StoryPicker } from "~/components/trackers/story-picker";
import { StorySourceFields } from "~/components/trackers/story-source";
import { listOutputs } from "~/domain/ai-tools/outputs.server";
import { type Actor, canWrite } from "~/domain/actor";
import { AppError, PrimaryRequired } from "~/domain/errors";
import { projectAccess } from "~/domain/projects/access.server";
import { listTrackerConnections, trackerTargets } from "~/domain/trackers/connections.server";
import { prdStories } from "~/domain/trackers/prd-stories.server";
import { parseStories } from "~/domain/trackers/stories";
import { STORY_SOURCES, checkedStoriesSchema, storySourceSchema } from "~/domain/trackers/story-source.schema";
import { previewPickedStories, trackerDefaults } from "~/domain/trackers/story-source.server";
import { refreshIssueStates } from "~/domain/trackers/refresh.server";
import { listTrackerIssues, previewStories, sendStories } from "~/domain/trackers/sync.server";
import { type SendStoriesInput, sendStoriesSchema } from "~/domain/trackers/trackers.schema";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import * as trackers from "~/http/api/contracts/trackers";
import { guarded, intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";
import refreshStyles from "~/styles/tracker-refresh.css?url";
import storyStyles from "~/styles/tracker-stories.css?url";
import trackerStyles from "~/styles/trackers.css?url";

export const meta: MetaFunction = () => [{ title: "Send to tracker · PRD Studio" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: trackerStyles },
  { rel: "stylesheet", href: storyStyles },
  { rel: "stylesheet", href: refreshStyles },
];

const messageOf = (error: unknown) => (error instanceof AppError ? (error.details?.[0]?.message ?? error.message) : null);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const { project, canEdit } = await orPageError(projectAccess(actor, params.projectId!));
  const mayEdit = canEdit && canWrite(actor);
  const q = new URL(request.url).searchParams;
  const asked = { outputId: q.get("outputId") ?? "", connectionId: q.get("connectionId") ?? "", target: (q.get("target") ?? "").trim() };
  const [{ connections }, outputs, linked, { flash, headers }, prdMarkdown, defaults] = await Promise.all([
    listTrackerConnections(actor),
    listOutputs(actor, project.id, { kind: "user_stories", limit: 20 }),
    listTrackerIssues(actor, project.id),
    readFlash(request),
    mayEdit ? prdStories(actor, project.id) : null,
    mayEdit ? trackerDefaults(actor, project.id, { connectionId: asked.connectionId, target: asked.target }) : { connectionId: "", target: "" },
  ]);
  const { connectionId } = defaults;
  let targets: { id: string; name: string }[] = [];
  let targetsError: string | null = null;
  let preview: Awaited<ReturnType<typeof previewStories>> | null = null;
  let previewError: string | null = null;
  if (mayEdit && connectionId) {
    try {
      // Only where the connection may send (an owner or admin chose; docs/trackers.md, "Where stories may be sent").
      targets = (await trackerTargets(actor, connectionId)).targets.filter((t) => t.allowed);
    } catch (error) {
      // On a LiteFS replica with a token to renew: no suggestions; the field still takes any target.
      if (!(error instanceof PrimaryRequired)) {
        targetsError = messageOf(error);
        if (!targetsError) throw error;
      }
    }
  }
  if (mayEdit && asked.connectionId && asked.target && asked.outputId) {
    try {
      preview = await previewStories(actor, project.id, sendStoriesSchema.parse(asked));
    } catch (error) {
      previewError = messageOf(error) ?? "These stories cannot be previewed. Check the choices above.";
    }
  }
  const oldest = linked.issues.reduce<string | null>((min, i) => (min === null || i.lastSyncedAt < min ? i.lastSyncedAt : min), null);
  const lastChecked = oldest ? { iso: oldest, label: new Date(oldest).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) } : null;
  const prdCount = prdMarkdown ? parseStories(prdMarkdown).length : 0;
  const askedSource = STORY_SOURCES.find((s) => s === q.get("source"));
  const source = askedSource ?? (asked.outputId || outputs.length ? "output" : prdCount ? "prd" : "paste");
  return withHeaders(
    {
      project: { id: project.id, name: project.name },
      mayEdit,
      connections: connections.map((c) => ({ id: c.id, label: `${c.serviceName} (${c.accountLabel})`, targetKind: c.targetKind })),
      outputs: outputs.map((o) => ({
        id: o.id,
        label: `${o.title}, ${new Date(o.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}`,
      })),
      prdCount,
      chosen: { source, connectionId, target: defaults.target, outputId: asked.outputId || outputs[0]?.id || "" },
      targets,
      targetsError,
      preview,
      previewError,
      linked,
      lastChecked,
      notice: flash?.kind === "notice" ? { message: flash.message, tone: flash.tone ?? "success" } : null,
    },
    { headers },
  );
}

/** The preview again, with the checked stories and why the send was refused, so nothing has to be chosen twice. */
async function previewAgain(actor: Actor, projectId: string, input: SendStoriesInput, source: string, checked: string[], error: string) {
  const preview = await previewStories(actor, projectId, { ...input, storyKeys: undefined });
  const picked: PickerData = { preview, source, outputId: input.outputId ?? "", markdown: input.markdown ?? "", checked, error };
  return { picked };
}

export async function action(args: ActionFunctionArgs) {
  // The checked stories are repeated `storyKeys` fields; the form reader keeps one value per name.
  const raw = args.request.clone();
  return intentAction({
    // Each form under the policy of the /api operation it mirrors (writers only, as the API).
    refresh: guarded(trackers.refreshTrackerIssues, async ({ actor, params }) => {
      const { message, tone } = refreshNotice(await refreshIssueStates(actor, params.projectId!));
      return redirectWithNotice(`/projects/${params.projectId!}/tracker`, message, tone);
    }),
    preview: guarded(trackers.previewTrackerSend, async ({ actor, values, params }) => {
      const projectId = params.projectId!;
      if (values.source === "output") {
        // Saved outputs keep their preview address (a GET): post/redirect/get.
        const input = sendStoriesSchema.parse({ connectionId: values.connectionId, target: values.target, outputId: values.outputId });
        const query = new URLSearchParams({ outputId: input.outputId!, connectionId: input.connectionId, target: input.target });
        return redirect(`/projects/${projectId}/tracker?${query}`);
      }
      const input = storySourceSchema.parse(values);
      const { preview, markdown } = await previewPickedStories(actor, projectId, input);
      const picked: PickerData = { preview, source: input.source, outputId: "", markdown, checked: null, error: null };
      return { picked };
    }),
    send: guarded(trackers.sendToTracker, async ({ actor, values, params }) => {
      const projectId = params.projectId!;
      const input = sendStoriesSchema.parse({
        connectionId: values.connectionId,
        target: values.target,
        outputId: values.outputId || undefined,
        markdown: values.outputId ? undefined : values.markdown,
      });
      const source = values.source || (input.outputId ? "output" : "paste");
      let storyKeys: string[] | undefined;
      if (values.picking) {
        // The preview's form: only the checked stories (without it, an older form or link: all of them).
        const keys = (await raw.formData()).getAll("storyKeys").filter((v): v is string => typeof v === "string");
        const checked = checkedStoriesSchema.safeParse(keys);
        if (!checked.success) return data(await previewAgain(actor, projectId, input, source, keys, checked.error.issues[0]!.message), { status: 400 });
        storyKeys = checked.data;
      }
      let r: Awaited<ReturnType<typeof sendStories>>;
      try {
        r = await sendStories(actor, projectId, { ...input, storyKeys });
      } catch (error) {
        // Refused as a whole (another send running…): the preview stays, with the reason beside the button.
        const message = messageOf(error);
        const again = message ? await previewAgain(actor, projectId, input, source, storyKeys ?? [], message).catch(() => null) : null;
        if (!again) throw error;
        return data(again, { status: (error as AppError).status });
      }
      const failures = r.results.filter((x) => x.error);
      const parts = [`Sent to ${input.target}: ${r.created} created, ${r.updated} updated.`];
      if (failures.length)
        parts.push(`${failures.length} not sent: ${failures[0]!.error!.replace(/^Not sent: /, "")}. Send again to continue; nothing is duplicated.`);
      return redirectWithNotice(`/projects/${projectId}/tracker`, parts.join(" "), failures.length ? "error" : "success");
    }),
  })(args);
}

export default function SendToTracker() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = result && typeof result === "object" && "formError" in result ? (result as FormState) : null;
  const picked = result && typeof result === "object" && "picked" in result ? (result.picked as PickerData) : null;
  // After a POST (a preview, or a refused send), the form shows what was posted.
  const posted = failure?.values ?? null;
  const chosen = {
    source: posted?.source || picked?.source || d.chosen.source,
    outputId: posted?.outputId || picked?.outputId || d.chosen.outputId,
    markdown: posted?.markdown ?? (picked?.source === "paste" ? picked.markdown : ""),
    connectionId: posted?.connectionId || picked?.preview.connectionId || d.chosen.connectionId,
    target: posted?.target ?? picked?.preview.target ?? d.chosen.target,
  };
  const previewFailed = failure?.intent === "preview" ? failure : null;
  const errors = previewFailed?.fieldErrors;
  // A send refused for its target (not one the connection allows) says why beside the target too.
  const targetError = errors?.target ?? errors?.connectionId ?? failure?.fieldErrors?.target ?? (picked ? null : d.previewError) ?? d.targetsError;
  const shown: PickerData | null =
    picked ?? (d.preview ? { preview: d.preview, source: "output", outputId: d.chosen.outputId, markdown: "", checked: null, error: null } : null);
  const kind = d.connections.find((c) => c.id === chosen.connectionId)?.targetKind ?? "repository";
  // A failure whose form is not on the page (a viewer's post, a send without its preview) is shown at the top.
  const formShown = d.mayEdit && d.connections.length > 0;
  const pickerShown = Boolean(shown && d.mayEdit);
  const refreshShown = d.mayEdit && d.linked.issues.length > 0;
  const shownAt: Record<string, boolean> = { preview: formShown, send: pickerShown, refresh: refreshShown };
  const strayFailure = failure && !shownAt[failure.intent ?? ""] ? failure : null;
  return (
    <div className="stack">
      {d.notice ? (
        <div className={`alert ${d.notice.tone === "error" ? "alert-error" : "alert-success"}`} role="status">
          <p>{d.notice.message}</p>
        </div>
      ) : null}
      {strayFailure ? <FormAlert state={strayFailure} /> : null}
      <section className="card stack" aria-labelledby="send-heading">
        <h2 id="send-heading">Send user stories to a tracker</h2>
        {!d.mayEdit ? (
          <p className="muted">You can see the linked issues below; sending stories needs edit rights on this project.</p>
        ) : d.connections.length === 0 ? (
          <p className="muted">
            No issue tracker is connected. An owner or admin connects one in <Link to="/settings/trackers">Settings → Issue trackers</Link>.
          </p>
        ) : (
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="preview" />
            <FormAlert state={previewFailed} />
            <StorySourceFields projectId={d.project.id} outputs={d.outputs} prdCount={d.prdCount} chosen={chosen} errors={errors} />
            <div className="field">
              <label htmlFor="field-connectionId">Tracker</label>
              <select id="field-connectionId" name="connectionId" defaultValue={chosen.connectionId}>
                {d.connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="field-target">{kind === "repository" ? "Repository (owner/name)" : `${kind[0]!.toUpperCase()}${kind.slice(1)}`}</label>
              <input
                id="field-target"
                name="target"
                list="tracker-targets"
                defaultValue={chosen.target}
                autoComplete="off"
                aria-invalid={targetError ? true : undefined}
                aria-describedby="field-target-hint"
              />
              <datalist id="tracker-targets">
                {d.targets.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </datalist>
              <p id="field-target-hint" className={targetError ? "field-error" : "hint"}>
                {targetError ??
                  (d.targets.length
                    ? `Suggested: ${d.targets
                        .map((t) => t.name)
                        .slice(0, 5)
                        .join(", ")}`
                    : "Where the issues are created.")}
              </p>
            </div>
            <div>
              <button type="submit" className="btn btn-secondary">
                Preview the issues
              </button>
            </div>
          </Form>
        )}
      </section>
      {shown && d.mayEdit ? (
        <StoryPicker key={shown.preview.stories.map((s) => s.key).join()} data={shown} state={failure?.intent === "send" ? failure : null} />
      ) : null}
      <section className="card stack" aria-labelledby="linked-heading">
        <h2 id="linked-heading">Linked issues</h2>
        {d.linked.issues.length === 0 ? (
          <p className="muted">No story has been sent to a tracker yet.</p>
        ) : (
          <>
            <DeliveryBar progress={d.linked.progress} />
            {refreshShown ? <RefreshStates lastChecked={d.lastChecked} failure={failure?.intent === "refresh" ? failure : null} /> : null}
            <div className="tracker-table-wrap">
              <table className="table tracker-table">
                <caption className="sr-only">Issues linked to this project's stories</caption>
                <thead>
                  <tr>
                    <th scope="col">Story</th>
                    <th scope="col">Issue</th>
                    <th scope="col">State</th>
                    <th scope="col" className="tracker-optional">
                      Section
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {d.linked.issues.map((i) => (
                    <tr key={i.id}>
                      <td>{i.title}</td>
                      <td>
                        <a href={i.url}>{i.externalKey}</a>
                      </td>
                      <td>
                        <StateBadge state={i.state} />
                      </td>
                      <td className="tracker-optional">{i.section ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
