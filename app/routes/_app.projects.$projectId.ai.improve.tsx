import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { collect } from "~/ai/run.server";
import { IMPROVEMENT_LABELS, IMPROVEMENT_TYPES } from "~/ai/schemas";
import { AiProgress } from "~/components/ai/progress";
import { failureMessage, isInputError, LastGoodNote, RunError, runErrorId, useLastGood } from "~/components/ai/run-error";
import { DiffView } from "~/components/diff-view";
import { FormAlert } from "~/components/forms";
import { improveSchema } from "~/domain/ai-tools/ai-tools.schema";
import { startImprove } from "~/domain/ai-tools/improve.server";
import { diffTexts } from "~/domain/prd/diff.server";
import { savePrd } from "~/domain/prd/prd.server";
import { aiToolPage } from "~/http/ui/ai-ui.server";
import { redirectWithNotice } from "~/http/ui/flash.server";
import * as aiTools from "~/http/api/contracts/ai-tools";
import { underPolicy } from "~/http/ui/intent-action.server";
import { formFailure, formValues } from "~/http/ui/ui.server";
import { replaceSection, splitSections } from "~/utils/md-sections";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { project, prd } = await aiToolPage(request, context, params.projectId!);
  const sections = splitSections(prd?.content ?? "")
    .map((p, index) => ({ index, title: p.title }))
    .filter((p) => p.title);
  return { canEdit: project.permissions.canEdit, sections };
}

/**
 * Improve runs the chosen rewrite on the whole PRD or one section and shows
 * the change as a diff; nothing is saved until the user accepts it, which
 * saves the PRD (a new version) unless someone saved a newer one meanwhile.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const values = await formValues(request);
  const projectId = params.projectId!;
  try {
    const { actor, prd } = await aiToolPage(request, context, projectId);
    const current = prd?.content ?? "";
    if (values.intent === "accept") {
      await savePrd(actor, projectId, { content: values.content ?? "" }, { mode: "put", expectedVersionId: values.baseVersionId, source: "improve" });
      const message = "The improvement was saved as a new version of the PRD.";
      return redirectWithNotice(`/projects/${projectId}`, message);
    }
    const index = values.section ? Number(values.section) : -1;
    const parts = splitSections(current);
    const original = index >= 0 && parts[index] ? parts[index]!.text : current;
    const input = improveSchema.parse({ ...values, content: original, projectId });
    // Under the policy of POST /api/ai/improve: the AI rate, and an AI slot while it runs.
    const done = await underPolicy(actor, aiTools.improve, input, async () => collect(await startImprove(actor, input), request.signal));
    const improved = String(done.fullContent);
    const next = index >= 0 ? replaceSection(current, index, improved) : improved;
    return {
      preview: {
        type: input.improvementType,
        scope: index >= 0 ? parts[index]!.title : "the whole PRD",
        content: next,
        baseVersionId: prd?.versionId ?? "",
        diff: diffTexts(current, next),
        model: String(done.model),
        notes: Array.isArray(done.notes) ? (done.notes as string[]) : [],
        at: new Date().toISOString(),
      },
    };
  } catch (error) {
    return formFailure(error, values, [], { intent: values.intent });
  }
}

export default function Improve() {
  const { canEdit, sections } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = result && "formError" in result ? result : null;
  // With JavaScript, the last preview stays on screen when the next run fails.
  const preview = useLastGood(result && "preview" in result ? result.preview : null, Boolean(failure));
  const improving = navigation.state === "submitting" && navigation.formData?.get("intent") === "improve";
  const failed = failure && failure.intent !== "accept" && !improving ? failure : null;
  const errorId = runErrorId("improve");
  if (!canEdit) return <p className="muted">Improving the PRD needs edit rights on the project.</p>;
  return (
    <div className="stack">
      <section className="card" aria-labelledby="improve-heading">
        <h2 id="improve-heading">Improve the writing</h2>
        <p className="muted">Pick what to improve; you see the change as a diff and decide whether to keep it.</p>
        <FormAlert state={failure?.intent === "accept" ? failure : null} />
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="improve" />
          <div className="form-row">
            <div className="field">
              <label htmlFor="improve-type">Improvement</label>
              <select id="improve-type" name="improvementType" defaultValue={failure?.values?.improvementType ?? "improve_writing"}>
                {IMPROVEMENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {IMPROVEMENT_LABELS[t].label} — {IMPROVEMENT_LABELS[t].description}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="improve-section">Part of the PRD</label>
              <select id="improve-section" name="section" defaultValue={failure?.values?.section ?? ""}>
                <option value="">The whole PRD</option>
                {sections.map((s) => (
                  <option key={s.index} value={s.index}>
                    {s.title}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="field">
            <label htmlFor="improve-prompt">Extra instruction (optional)</label>
            <input
              id="improve-prompt"
              name="customPrompt"
              maxLength={2000}
              placeholder="e.g. keep it under 200 words"
              defaultValue={failure?.values?.customPrompt}
            />
          </div>
          <div>
            <button type="submit" className="btn" disabled={improving} aria-describedby={failed ? errorId : undefined}>
              {improving ? "Improving…" : "Show the improvement"}
            </button>
          </div>
        </Form>
        {improving ? <AiProgress label="Improving" phase="rewriting" percent={30} /> : null}
        {failed ? (
          <RunError
            id={errorId}
            message={failureMessage(failed)}
            lastGood={preview ? { at: preview.at, href: "#preview-heading" } : null}
            retry={isInputError(failed) ? null : { values: { intent: "improve", ...failed.values } }}
          />
        ) : null}
      </section>
      {preview ? (
        <section className="card" aria-labelledby="preview-heading" data-testid="improvement-preview">
          {failed ? <LastGoodNote at={preview.at} /> : null}
          <h2 id="preview-heading">
            {IMPROVEMENT_LABELS[preview.type as keyof typeof IMPROVEMENT_LABELS]?.label ?? preview.type}: {preview.scope}
          </h2>
          <p className="muted">
            {preview.diff.added + preview.diff.removed === 0
              ? "Nothing to change for this improvement."
              : `${preview.diff.added} line(s) added, ${preview.diff.removed} removed`}{" "}
            · {preview.model === "builtin" ? "offline drafter (rule-based)" : preview.model}
          </p>
          <DiffView lines={preview.diff.lines} />
          {preview.notes.length ? (
            <ul className="muted" aria-label="Writing advice">
              {preview.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          ) : null}
          <div className="inline" style={{ marginTop: 12 }}>
            <Form method="post">
              <input type="hidden" name="intent" value="accept" />
              <input type="hidden" name="content" value={preview.content} />
              <input type="hidden" name="baseVersionId" value={preview.baseVersionId} />
              <button type="submit" className="btn" disabled={preview.diff.added + preview.diff.removed === 0}>
                Accept and save
              </button>
            </Form>
            <Link className="btn btn-secondary" to=".">
              Reject
            </Link>
          </div>
        </section>
      ) : null}
    </div>
  );
}
