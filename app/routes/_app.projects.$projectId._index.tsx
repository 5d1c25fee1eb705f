import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import editorStyles from "~/styles/editor.css?url";
import reviewStyles from "~/styles/reviews.css?url";
import deliveryStyles from "~/styles/delivery.css?url";
import trackerStoryStyles from "~/styles/tracker-stories.css?url";
import { data, data as withHeaders } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import { ClientOnly } from "remix-utils/client-only";
import { FormAlert, Notice } from "~/components/forms";
import { DiffView } from "~/components/diff-view";
import { AppError } from "~/domain/errors";
import { diffTexts } from "~/domain/prd/diff.server";
import { PRD_STYLES, putPrdSchema } from "~/domain/prd/prd.schema";
import { getPrd, savePrd } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";
import { renderMarkdownForPage } from "~/utils/markdown.server";
import { CommentsPanel } from "~/components/comments-panel";
import * as collaboration from "~/http/api/contracts/collaboration";
import { commentsAction, commentsData } from "~/http/ui/comments-ui.server";
import { PrdCheckCard } from "~/components/ai/prd-check-card";
import { checkProjectPrd } from "~/domain/prd/check.server";
import { readFlash } from "~/http/ui/flash.server";
import { starterFor } from "~/domain/prd/starter";
import { plural } from "~/utils/plural";
import { ReviewsSummary } from "~/components/projects/reviews-summary";
import { DeliveryLine } from "~/components/trackers/delivery";
import { deliveryProgress } from "~/domain/trackers/sync.server";
import { deliveryBySection } from "~/domain/trackers/delivery-sections.server";
import { DeliveryBySectionCard } from "~/components/trackers/delivery-sections";
import { trackersConnected } from "~/domain/trackers/story-source.server";
import { listViews } from "~/domain/collaboration/stakeholders.server";

/** The rich, live editor: its code loads only in the browser, on this page. */
const RichEditor = lazy(() => import("~/components/editor/rich-editor.client"));

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: editorStyles },
  { rel: "stylesheet", href: reviewStyles },
  { rel: "stylesheet", href: deliveryStyles },
  { rel: "stylesheet", href: trackerStoryStyles },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  const prd = await getPrd(actor, project.id).catch((e) => {
    if (e instanceof AppError && e.status === 404) return null;
    throw e;
  });
  const editing = new URL(request.url).searchParams.has("edit") || !prd;
  const [{ flash, headers }, check, views, delivery, deliverySections, trackers] = await Promise.all([
    readFlash(request),
    checkProjectPrd(actor, project.id),
    listViews(actor, project.id),
    deliveryProgress(actor, project.id),
    deliveryBySection(actor, project.id),
    project.permissions.canEdit ? trackersConnected(actor) : false,
  ]);
  return withHeaders(
    {
      projectId: project.id,
      user: { id: actor.user.id, name: actor.user.name },
      notice: flash?.kind === "notice" ? flash.message : null,
      noticeTone: flash?.kind === "notice" ? (flash.tone ?? "success") : "success",
      check,
      delivery,
      deliverySections,
      // The Reviews line: decisions only, never the personal links.
      reviews: views
        .filter((v) => v.reviewStatus !== null)
        .map(({ id, name, stakeholderName, reviewStatus, resolvedByName, resolvedAt, resolvedVia, resolvedByEmail, feedback }) => ({
          id,
          name,
          stakeholderName,
          reviewStatus,
          resolvedByName,
          resolvedAt,
          resolvedVia,
          resolvedByEmail,
          feedback,
        })),
      permissions: project.permissions,
      /** Editors may send the stories in a selection to a connected tracker. */
      canSendToTracker: project.permissions.canEdit && trackers,
      prd,
      html: prd ? renderMarkdownForPage(prd.content) : "",
      editing: editing && project.permissions.canEdit,
      starter: starterFor(project.name, project.template),
      ...(await commentsData(actor, project.id, prd?.content ?? "")),
    },
    { headers },
  );
}

/** The /api operation each comment form mirrors: its rules apply to the form post. */
const commentOperation = (intent: string) =>
  intent === "comment-delete"
    ? collaboration.deleteComment
    : intent === "comment-edit" || intent === "comment-resolve" || intent === "comment-reopen"
      ? collaboration.updateComment
      : collaboration.createComment;

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  if (values.intent?.startsWith("comment-")) return commentsAction(actor, params.projectId!, values, commentOperation);
  try {
    const input = putPrdSchema.parse({ ...values, baseVersionId: values.baseVersionId || undefined });
    const { merged, prd } = await savePrd(actor, params.projectId!, input, { mode: "put" });
    return { saved: true as const, merged, versionNumber: prd.versionNumber };
  } catch (error) {
    if (error instanceof AppError && error.code === "CONFLICT") {
      const current = error.extra?.current as { content: string; versionId: string; versionNumber: number; updatedBy: { name: string | null } | null };
      const overlaps = (error.extra?.conflicts ?? []) as { base: string; mine: string; theirs: string }[];
      return data(
        {
          conflict: {
            current,
            overlaps,
            mine: values.content ?? "",
            diff: diffTexts(current.content, values.content ?? ""),
          },
        },
        { status: 409 },
      );
    }
    return formFailure(error, values);
  }
}

export default function ProjectDocument() {
  const {
    prd,
    html,
    editing,
    permissions,
    starter,
    notice,
    noticeTone,
    check,
    projectId,
    user,
    reviews,
    delivery,
    deliverySections,
    canSendToTracker,
    ...comments
  } = useLoaderData<typeof loader>();
  const [activeCommentId, setActiveCommentId] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const conflict = result && "conflict" in result ? result.conflict : null;
  const failure = result && "formError" in result ? result : null;
  const commentMessage = result && "commentMessage" in result ? result.commentMessage : null;

  if (!prd && !permissions.canEdit) {
    return (
      <div className="card empty-state">
        <h2>No PRD yet</h2>
        <p>The team has not written this PRD yet. Check back soon.</p>
      </div>
    );
  }

  return (
    <div className="split-3">
      <div className="stack">
        {conflict ? (
          <section className="card" aria-labelledby="conflict-heading" role="alert">
            <h2 id="conflict-heading">Someone else saved a newer version</h2>
            <p>
              {conflict.current.updatedBy?.name ?? "A colleague"} saved version {conflict.current.versionNumber} while you were editing.{" "}
              {conflict.overlaps.length
                ? `Edits to different lines were merged, but you both changed the same lines in ${plural(conflict.overlaps.length, "place")}:`
                : "Your text is kept below."}
            </p>
            {conflict.overlaps.length ? (
              <ol className="merge-conflicts" aria-label="Lines you both changed">
                {conflict.overlaps.map((o, i) => (
                  <li key={i}>
                    <p className="muted">Theirs:</p>
                    <pre>{o.theirs || "(deleted)"}</pre>
                    <p className="muted">Yours:</p>
                    <pre>{o.mine || "(deleted)"}</pre>
                  </li>
                ))}
              </ol>
            ) : null}
            <p>Lines marked − are theirs, + are yours:</p>
            <DiffView lines={conflict.diff.lines} />
            <div className="inline" style={{ marginTop: 12 }}>
              <Form method="post">
                <input type="hidden" name="intent" value="save" />
                <input type="hidden" name="content" value={conflict.mine} />
                <input type="hidden" name="baseVersionId" value={conflict.current.versionId} />
                <button className="btn" type="submit">
                  Save my text over theirs
                </button>
              </Form>
              <Link className="btn btn-secondary" to="?edit" reloadDocument>
                Discard mine and load theirs
              </Link>
            </div>
          </section>
        ) : null}
        <Notice message={notice} tone={noticeTone} />
        {!prd && permissions.canEdit ? (
          <section className="card" aria-labelledby="builder-cta">
            <h2 id="builder-cta">Start with the AI builder</h2>
            <p className="muted">Answer a few questions about your idea and generate a first draft from your answers, or write it yourself below.</p>
            <Link className="btn" to={`/projects/${projectId}/builder`}>
              Build the PRD with AI
            </Link>
          </section>
        ) : null}
        {commentMessage ? (
          <div className="alert alert-success" role="status">
            <p>{commentMessage}</p>
          </div>
        ) : null}
        {result && "saved" in result ? (
          <div className="alert alert-success" role="status">
            <p>
              {result.merged
                ? `Saved as v${result.versionNumber}: merged with the changes saved since you started editing.`
                : "Saved. A new version was recorded."}
            </p>
          </div>
        ) : null}
        <FormAlert state={failure} />
        {editing ? (
          <section className="card editor" aria-labelledby="editor-heading">
            <div className="card-header">
              <h2 id="editor-heading">{prd ? `Edit PRD (v${prd.versionNumber ?? 1})` : "Write the PRD"}</h2>
              {prd ? <Link to=".">Cancel</Link> : null}
            </div>
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="save" />
              <input type="hidden" name="baseVersionId" value={prd?.versionId ?? ""} />
              {/* A colleague's save since this version is merged in; only edits to the same lines come back as a conflict. */}
              <input type="hidden" name="merge" value="true" />
              <div className="field">
                <label htmlFor="prd-content">Content (Markdown)</label>
                <textarea
                  id="prd-content"
                  name="content"
                  defaultValue={conflict?.mine ?? prd?.content ?? starter.content}
                  aria-describedby="prd-content-hint"
                />
                <span className="hint" id="prd-content-hint">
                  {!prd && starter.question ? `Start with: ${starter.question} ` : ""}Use ## headings for sections; comments attach to them.
                </span>
              </div>
              <div className="form-row">
                <div className="field">
                  <label htmlFor="prd-style">Style</label>
                  <select id="prd-style" name="style" defaultValue={prd?.style ?? ""}>
                    <option value="">Not set</option>
                    {PRD_STYLES.map((s) => (
                      <option key={s} value={s}>
                        {s[0]!.toUpperCase() + s.slice(1)}
                      </option>
                    ))}
                  </select>
                </div>
                <button className="btn" type="submit" disabled={saving}>
                  {saving ? "Saving…" : "Save PRD"}
                </button>
              </div>
            </Form>
          </section>
        ) : null}
        {prd && !editing ? (
          <ClientOnly fallback={<PrdPreview prd={prd} html={html} canEdit={permissions.canEdit} />}>
            {() => (
              <Suspense fallback={<PrdPreview prd={prd} html={html} canEdit={permissions.canEdit} />}>
                <RichEditor
                  projectId={projectId}
                  me={user}
                  canEdit={permissions.canEdit}
                  canComment={permissions.canComment}
                  canSendToTracker={canSendToTracker}
                  html={html}
                  versionNumber={prd.versionNumber}
                  threads={comments.comments.flatMap((c) => (c.anchor && !c.resolved ? [{ id: c.id, ...c.anchor }] : []))}
                  mentionable={comments.mentionable ?? []}
                  activeCommentId={activeCommentId}
                  onActiveComment={setActiveCommentId}
                  onCommentPosted={(id) => {
                    setActiveCommentId(id || null);
                    revalidator.revalidate();
                  }}
                />
              </Suspense>
            )}
          </ClientOnly>
        ) : prd ? (
          <PrdPreview prd={prd} html={html} canEdit={permissions.canEdit && !editing} />
        ) : null}
        {prd && permissions.canDelete ? (
          <p className="muted">
            {/* A page with a confirmation step, then a plain form post: it works when the live editor will not open. A text link, so it wraps on a phone. */}
            Live editor stuck or out of step?{" "}
            <Link className="text-link" to={`/projects/${projectId}/live-reset`}>
              Reset live document from the last saved version
            </Link>
          </p>
        ) : null}
      </div>
      <div className="stack">
        <DeliveryLine progress={delivery} href={`/projects/${projectId}/tracker`} />
        <DeliveryBySectionCard delivery={deliverySections} projectId={projectId} />
        <ReviewsSummary projectId={projectId} reviews={reviews} />
        <PrdCheckCard check={check.check} template={check.template} />
        <CommentsPanel {...comments} canComment={permissions.canComment} activeCommentId={activeCommentId ?? undefined} onThreadFocus={setActiveCommentId} />
      </div>
    </div>
  );
}

type PrdView = { versionNumber: number | null; style: string | null; updatedBy: { name: string | null } | null };

/** The PRD as the server renders it: what a browser without JavaScript shows, and the rich editor's stand-in while it loads. */
function PrdPreview({ prd, html, canEdit }: { prd: PrdView; html: string; canEdit: boolean }) {
  return (
    <article className="card prose" aria-label="PRD">
      <div className="card-header">
        <span className="muted">
          v{prd.versionNumber} · {prd.style ?? "no style"} · updated by {prd.updatedBy?.name ?? "—"}
        </span>
        {canEdit ? (
          <Link className="btn btn-secondary btn-sm" to="?edit">
            Edit
          </Link>
        ) : null}
      </div>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (renderMarkdown). */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}
