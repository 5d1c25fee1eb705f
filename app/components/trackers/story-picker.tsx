import { Form } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { plural } from "~/utils/plural";

/**
 * The preview of the issues a send would create or update, one checkbox per
 * story (all checked at first): "Send" sends only the checked ones, with the
 * same source (a saved output or the Markdown) in hidden fields. With
 * JavaScript on the button counts the checked stories.
 */

export interface PickerStory {
  key: string;
  title: string;
  labels: string[];
  section: string | null;
  action: "create" | "update";
  issue: { externalKey: string } | null;
}

export interface PickerData {
  preview: { connectionId: string; target: string; creates: number; updates: number; stories: PickerStory[] };
  source: string;
  outputId: string;
  markdown: string;
  /** The keys checked when the send was refused; null: all. */
  checked: string[] | null;
  /** Why the send was refused (none checked, another send running…). */
  error: string | null;
}

const actionWords = (s: PickerStory) => (s.action === "create" ? "will create" : `will update ${s.issue?.externalKey ?? "its issue"}`);

export function StoryPicker({ data, state }: { data: PickerData; state: FormState | null }) {
  const { preview, checked, error } = data;
  const hydrated = useHydrated();
  const [count, setCount] = useState(() => (checked ? preview.stories.filter((s) => checked.includes(s.key)).length : preview.stories.length));
  const describedBy = ["story-picks-hint", error ? "field-storyKeys-error" : null].filter(Boolean).join(" ");
  return (
    <section className="card stack" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview: {preview.target}</h2>
      <p>
        {preview.creates} to create, {preview.updates} to update. Stories already sent update their issue instead of making a new one.
      </p>
      {preview.stories.length === 0 ? (
        <p className="muted">No stories were found in this output (stories are the ### headings).</p>
      ) : (
        <Form method="post" className="form" onChange={(e) => setCount(e.currentTarget.querySelectorAll('input[name="storyKeys"]:checked').length)}>
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="picking" value="1" />
          <input type="hidden" name="source" value={data.source} />
          <input type="hidden" name="connectionId" value={preview.connectionId} />
          <input type="hidden" name="target" value={preview.target} />
          {data.outputId ? <input type="hidden" name="outputId" value={data.outputId} /> : <input type="hidden" name="markdown" value={data.markdown} />}
          <fieldset className="tracker-picks" aria-describedby={describedBy}>
            <legend>Stories to send</legend>
            <p className="hint" id="story-picks-hint">
              Uncheck the stories to leave out.
            </p>
            <ul className="tracker-pick-list">
              {preview.stories.map((s) => (
                <li key={s.key} className="tracker-pick">
                  <input type="checkbox" id={`story-${s.key}`} name="storyKeys" value={s.key} defaultChecked={checked ? checked.includes(s.key) : true} />
                  <label htmlFor={`story-${s.key}`}>
                    <span className="tracker-pick-title">{s.title}</span>
                    <span className="tracker-pick-action"> — {actionWords(s)}</span>
                  </label>
                  <span className="tracker-labels tracker-pick-labels">
                    {s.section ? <span className="muted">{s.section}</span> : null}
                    {s.labels.map((l) => (
                      <span key={l} className="badge">
                        {l}
                      </span>
                    ))}
                  </span>
                </li>
              ))}
            </ul>
            {error ? (
              <p className="field-error" id="field-storyKeys-error" role="alert">
                {error}
              </p>
            ) : null}
          </fieldset>
          <FormAlert state={state} />
          <div>
            <SubmitButton pendingText="Sending…">
              {hydrated ? `Send ${plural(count, "story", "stories")} to ${preview.target}` : `Send the checked stories to ${preview.target}`}
            </SubmitButton>
          </div>
        </Form>
      )}
    </section>
  );
}
