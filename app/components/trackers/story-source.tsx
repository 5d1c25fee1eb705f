import { Link } from "@remix-run/react";
import { FieldNotes } from "~/components/forms";
import { plural } from "~/utils/plural";

/**
 * Where the stories sent to a tracker come from (docs/trackers.md,
 * "Choosing the stories"): a saved user-stories result, the PRD's own
 * "User stories" section, or pasted Markdown. One group of radio buttons;
 * each source's control sits under its button (hidden by CSS while another
 * source is chosen, where the browser supports :has), so it works with
 * JavaScript off.
 */

export type StorySourceChoice = { source: string; outputId: string; markdown: string };

const EXAMPLE = `## Receipts

### Snap a receipt
As an employee, I want to photograph a receipt, so that I do not keep paper.

- Given a photo, when I upload it, then the amount is read.`;

export function StorySourceFields({
  projectId,
  outputs,
  prdCount,
  chosen,
  errors,
}: {
  projectId: string;
  outputs: { id: string; label: string }[];
  /** Stories under the PRD's "User stories" heading. */
  prdCount: number;
  chosen: StorySourceChoice;
  errors: Record<string, string> | undefined;
}) {
  const radio = (value: string, disabled: boolean, describedBy: string) => (
    <input
      type="radio"
      id={`source-${value}`}
      name="source"
      value={value}
      defaultChecked={chosen.source === value}
      disabled={disabled}
      aria-describedby={describedBy}
    />
  );
  return (
    <fieldset className="tracker-sources" aria-describedby={errors?.source ? "field-source-error" : undefined}>
      <legend>Where the stories come from</legend>
      <div className="tracker-source">
        {radio("output", outputs.length === 0, "source-output-hint")}
        <label htmlFor="source-output">Saved user stories</label>
        <div className="tracker-source-detail">
          <p className="hint" id="source-output-hint">
            {outputs.length ? (
              "A result of the user-stories AI tool."
            ) : (
              <>
                None yet: write them on the <Link to={`/projects/${projectId}/ai/documents`}>AI documents page</Link>.
              </>
            )}
          </p>
          {outputs.length ? (
            <div className="field">
              <label htmlFor="field-outputId">Saved result</label>
              <select
                id="field-outputId"
                name="outputId"
                defaultValue={chosen.outputId}
                aria-invalid={errors?.outputId ? true : undefined}
                aria-describedby={errors?.outputId ? "field-outputId-error" : undefined}
              >
                {outputs.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.label}
                  </option>
                ))}
              </select>
              <FieldNotes id="field-outputId" error={errors?.outputId} />
            </div>
          ) : null}
        </div>
      </div>
      <div className="tracker-source">
        {radio("prd", prdCount === 0, "source-prd-hint")}
        <label htmlFor="source-prd">Stories in this PRD</label>
        <div className="tracker-source-detail">
          <p className="hint" id="source-prd-hint">
            {prdCount
              ? `${plural(prdCount, "story", "stories")} under the PRD's "User stories" heading.`
              : 'None yet: the PRD has no "User stories" section (a ## heading with a ### heading for each story).'}
          </p>
        </div>
      </div>
      <div className="tracker-source">
        {radio("paste", false, "field-markdown-hint")}
        <label htmlFor="source-paste">Paste stories (Markdown)</label>
        <div className="tracker-source-detail field">
          <label htmlFor="field-markdown">Stories as Markdown</label>
          <textarea
            id="field-markdown"
            name="markdown"
            rows={10}
            defaultValue={chosen.markdown}
            placeholder={EXAMPLE}
            aria-invalid={errors?.markdown ? true : undefined}
            aria-describedby={`field-markdown-hint${errors?.markdown ? " field-markdown-error" : ""}`}
          />
          <FieldNotes
            id="field-markdown"
            hint={
              <>
                <code>## Epic</code>, then for each story <code>### Story title</code>, its “As a …, I want …, so that …” line and its acceptance criteria as a
                list. Without ### headings, each ## heading is a story.
              </>
            }
            error={errors?.markdown}
          />
        </div>
      </div>
      {errors?.source ? (
        <p className="field-error" id="field-source-error">
          {errors.source}
        </p>
      ) : null}
    </fieldset>
  );
}
