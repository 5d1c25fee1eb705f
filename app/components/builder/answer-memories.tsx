import { Form, Link, useNavigation } from "@remix-run/react";
import type { MemoryCategory, MemoryType } from "~/ai/schemas";
import { CATEGORY_LABELS, TYPE_INFO } from "~/components/settings/memory";
import { plural } from "~/utils/plural";

export interface SavedMemoryItem {
  id: string;
  memoryType: MemoryType;
  category: MemoryCategory;
  summary: string;
  content: string;
}

/**
 * "Save what I said as memories": extraction over the person's own answers
 * in this conversation (a plain form: post, redirect, then this section lists
 * what was saved). While it runs the button says so and a bar shows progress.
 */
export function AnswerMemories({
  myAnswers,
  saved,
  error,
}: {
  myAnswers: number;
  saved: { notice: string | null; memories: SavedMemoryItem[] } | null;
  error: string | null;
}) {
  const navigation = useNavigation();
  const running = navigation.state !== "idle" && navigation.formData?.get("intent") === "memories";
  return (
    <section className="card answer-memories" id="memories" aria-labelledby="memories-heading">
      <h2 id="memories-heading">Save what I said as memories</h2>
      <p className="muted">
        {myAnswers
          ? `Reads your ${plural(myAnswers, "answer")} in this conversation for lasting preferences, decisions and facts about your work, and saves them to your memory. AI answers use your memories in every project; only you can see them.`
          : "You have not answered in this conversation yet. Once you have, your answers can be saved as memories that AI answers use in every project."}
      </p>
      {saved ? (
        <div className="answer-memories-result">
          {saved.notice ? (
            <p className="alert alert-success" role="status">
              {saved.notice}
            </p>
          ) : null}
          {saved.memories.length ? (
            <ul className="answer-memories-list" aria-label="Memories saved from your answers">
              {saved.memories.map((m) => (
                <li key={m.id}>
                  <span className="badge badge-brand">{TYPE_INFO[m.memoryType].label}</span> <span className="badge">{CATEGORY_LABELS[m.category]}</span>{" "}
                  {m.content}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {myAnswers ? (
        <Form method="post" className="inline">
          <input type="hidden" name="intent" value="memories" />
          <button type="submit" className="btn btn-secondary" disabled={running} aria-describedby={error ? "memories-error" : undefined}>
            {running ? "Saving memories…" : "Save what I said as memories"}
          </button>
          {running ? <progress className="answer-memories-progress" aria-label="Reading your answers for things to remember" /> : null}
        </Form>
      ) : null}
      {error ? (
        <p className="field-error" id="memories-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="answer-memories-status" role="status">
        {running ? "Reading your answers for things to remember…" : ""}
      </p>
      <p>
        <Link to="/settings/memory">Review and edit your memories in Settings → Memory</Link>
      </p>
    </section>
  );
}
