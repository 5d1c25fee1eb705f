import { diffWords } from "diff";
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import type { ImprovementType } from "~/ai/schemas";
import { AiProgress } from "~/components/ai/progress";
import { type AiStreamFailure, useAiStream } from "~/components/ai/use-ai-stream";
import { plural } from "~/utils/plural";

/**
 * "AI on a selection" (docs/ai.md): a compact panel for a popover beside
 * selected text in the PRD editor. Each action streams a rewrite of `text`
 * from POST /api/ai/improve (same-origin cookie session: the browser's
 * Origin/Sec-Fetch-Site headers satisfy the CSRF check, and API-Version is
 * optional), shows it growing, then a word diff to accept or reject.
 * Nothing is saved here: Accept hands the replacement to the editor.
 */

export interface SelectionAiProps {
  projectId: string;
  /** The selected text (Markdown), sent as it is. */
  text: string;
  /** The user accepted the suggestion: replace the selection with `replacement`. */
  onAccept(replacement: string): void;
  /** Close the panel (Reject, Close, Escape). */
  onClose(): void;
}

interface Action {
  type: ImprovementType;
  label: string;
  /** What the progress bar says while it runs. */
  running: string;
}

const ACTIONS: Action[] = [
  { type: "improve_writing", label: "Improve", running: "Improving" },
  { type: "make_concise", label: "Shorten", running: "Shortening" },
  { type: "add_detail", label: "Expand", running: "Expanding" },
  { type: "add_metrics", label: "Make measurable", running: "Making it measurable" },
];

interface Run {
  type: ImprovementType;
  label: string;
  running: string;
  customPrompt?: string;
}

const SETTINGS_LINK = <a href="/settings/ai">Settings → AI providers</a>;

function seconds(n: number) {
  if (n < 60) return plural(n, "second");
  const minutes = Math.ceil(n / 60);
  return plural(minutes, "minute");
}

/** A failed request in plain words (error envelope: docs/api.md, ../shared/spec/decisions.md). */
function failureWords(message: string, failure: AiStreamFailure | null): ReactNode {
  const code = failure?.code ?? null;
  const status = failure?.status ?? null;
  if (code === "RATE_LIMITED" || status === 429) {
    return failure?.retryAfter
      ? `Too many AI requests right now. Try again in ${seconds(failure.retryAfter)}.`
      : "Too many AI requests right now. Wait a moment and try again.";
  }
  if (code === "LIMIT_REACHED" || code === "PLAN_UPGRADE_REQUIRED" || status === 402) {
    return failure?.metric && failure.metric !== "ai_tokens" ? (
      message
    ) : (
      <>
        Your organization has used this month's AI allowance on its plan. An owner can upgrade the plan, or you can add your own AI provider key in{" "}
        {SETTINGS_LINK}.
      </>
    );
  }
  if (code === "FEATURE_DISABLED") return `AI is not available here: ${message}`;
  if (code === "NOT_FOUND" || status === 404) return "This project was not found, or you no longer have access to it.";
  if (code === "FORBIDDEN") return "You need edit rights on this project to use AI on it.";
  if (code === "UNAUTHORIZED" || status === 401) return "Your session has ended. Sign in again, then try once more.";
  if (code === "VALIDATION_ERROR" || code === "PAYLOAD_TOO_LARGE") return `The selection could not be sent: ${message}`;
  if (code === "GENERATION_ERROR" || code === "PROVIDER_ERROR" || status === 502) {
    return /refused the api key/i.test(message) ? (
      <>
        The AI provider refused the API key, so nothing was suggested. Check the key in {SETTINGS_LINK}. ({message})
      </>
    ) : (
      `The AI provider could not answer, so nothing was suggested: ${message}`
    );
  }
  if (status === null) return `The request did not go through (${message}). Check your connection and try again.`;
  return message;
}

/** Keeps the selection's own leading and trailing whitespace around the suggestion. */
function asReplacement(original: string, suggestion: string) {
  const lead = /^\s*/.exec(original)![0];
  const trail = /\s*$/.exec(original)![0];
  return lead + suggestion.trim() + trail;
}

/** Word-level diff of the selection and the suggestion: deletions as <del>, insertions as <ins>. */
function WordDiff({ before, after, labelledBy }: { before: string; after: string; labelledBy: string }) {
  const parts = useMemo(() => diffWords(before, after), [before, after]);
  return (
    <div className="selection-ai-diff" role="region" aria-labelledby={labelledBy}>
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i}>
            <span className="sr-only">[added: </span>
            {part.value}
            <span className="sr-only">]</span>
          </ins>
        ) : part.removed ? (
          <del key={i}>
            <span className="sr-only">[removed: </span>
            {part.value}
            <span className="sr-only">]</span>
          </del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </div>
  );
}

export function SelectionAi({ projectId, text, onAccept, onClose }: SelectionAiProps) {
  const stream = useAiStream();
  const [run, setRun] = useState<Run | null>(null);
  const [instruction, setInstruction] = useState("");
  const [stopped, setStopped] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const focusTarget = useRef<HTMLButtonElement>(null);
  const id = useId();
  const empty = !text.trim();

  function start(next: Run) {
    setRun(next);
    setStopped(false);
    void stream.start("/api/ai/improve", { content: text, improvementType: next.type, customPrompt: next.customPrompt, projectId });
  }

  function stop() {
    stream.cancel();
    setStopped(true);
  }

  function close() {
    stream.cancel();
    onClose();
  }

  function onInstruction(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const prompt = instruction.trim();
    if (!prompt || empty) return;
    start({ type: "improve_writing", label: "Your instruction", running: "Following your instruction", customPrompt: prompt });
  }

  // Escape closes the panel from anywhere inside it.
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      stream.cancel();
      onClose();
    };
    el.addEventListener("keydown", onKey);
    return () => el.removeEventListener("keydown", onKey);
  }, [onClose, stream.cancel]);

  // Keyboard users keep their place: when a view replaces the button they pressed, focus moves to the new view's main button.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the view changes; the target is read from the ref.
  useEffect(() => {
    const active = typeof document === "undefined" ? null : document.activeElement;
    if (!active || active === document.body || panel.current?.contains(active)) focusTarget.current?.focus();
  }, [stream.status]);

  const done = stream.status === "done" ? stream.done : null;
  const suggestion = done ? String(done.fullContent ?? stream.text) : stream.text;
  const unchanged = done ? done.changed === false || suggestion.trim() === text.trim() : false;
  const offline = done?.provider === "builtin" || done?.model === "builtin";
  const announcement =
    stream.status === "done"
      ? unchanged
        ? "Done: no change suggested."
        : "Suggestion ready. Review the changes, then accept or reject."
      : stopped
        ? "Stopped. Your text was not changed."
        : "";

  return (
    <div className="selection-ai" ref={panel} role="group" aria-labelledby={`${id}-title`}>
      <div className="selection-ai-header">
        <h2 className="selection-ai-title" id={`${id}-title`}>
          AI on the selection
        </h2>
        <button type="button" className="btn btn-link btn-sm" onClick={close} aria-label="Close AI on the selection">
          Close
        </button>
      </div>
      <p className="sr-only" role="status">
        {announcement}
      </p>

      {stream.status === "idle" ? (
        <>
          {empty ? <p className="muted selection-ai-note">Select some text first.</p> : null}
          {stopped ? <p className="muted selection-ai-note">Stopped. Your text was not changed.</p> : null}
          <div className="selection-ai-actions" role="group" aria-label="Rewrite the selection">
            {ACTIONS.map((action, i) => (
              <button
                key={action.type}
                type="button"
                className="btn btn-secondary btn-sm"
                ref={i === 0 ? focusTarget : undefined}
                disabled={empty}
                onClick={() => start(action)}
              >
                {action.label}
              </button>
            ))}
          </div>
          <form className="selection-ai-form" onSubmit={onInstruction}>
            <label htmlFor={`${id}-instruction`}>Tell AI what to do</label>
            <div className="selection-ai-form-row">
              <input
                id={`${id}-instruction`}
                name="customPrompt"
                value={instruction}
                onChange={(e) => setInstruction(e.target.value)}
                maxLength={2000}
                placeholder="e.g. Fix the spelling"
                autoComplete="off"
              />
              <button type="submit" className="btn btn-sm" disabled={empty || !instruction.trim()}>
                Run
              </button>
            </div>
          </form>
        </>
      ) : null}

      {stream.status === "streaming" && run ? (
        <>
          <AiProgress label={run.running} phase={stream.progress?.phase ?? "starting"} percent={stream.progress?.percent ?? 0} />
          <div className="selection-ai-live" role="region" aria-label="Suggestion so far">
            {stream.text || <span className="muted">Waiting for the first words…</span>}
          </div>
          <div className="selection-ai-footer">
            <button type="button" className="btn btn-secondary btn-sm" ref={focusTarget} onClick={stop}>
              Stop
            </button>
          </div>
        </>
      ) : null}

      {stream.status === "done" && run ? (
        <>
          <h3 className="selection-ai-subtitle" id={`${id}-result`}>
            {run.label}: {unchanged ? "no change" : "suggested change"}
          </h3>
          {unchanged ? (
            <p className="selection-ai-note">
              {run.customPrompt && offline ? (
                <>
                  The offline drafter cannot carry out that instruction, so your text is unchanged. Add an AI provider key in {SETTINGS_LINK} for free-form
                  instructions.
                </>
              ) : (
                "No change suggested: the text already does what this action asks."
              )}
            </p>
          ) : (
            <WordDiff before={text.trim()} after={suggestion.trim()} labelledBy={`${id}-result`} />
          )}
          {done?.truncated === true ? (
            <p className="alert alert-warning selection-ai-note">The answer was cut off at the model's output limit: check the end before you accept it.</p>
          ) : null}
          {Array.isArray(done?.notes) && done.notes.length ? (
            <ul className="selection-ai-notes" aria-label="Writing advice">
              {(done.notes as string[]).map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          ) : null}
          <p className="muted selection-ai-meta">
            {offline ? "Suggested by the offline drafter (rule-based, not an AI model)." : `Suggested by ${String(done?.model ?? "the AI model")}.`}
          </p>
          <div className="selection-ai-footer">
            {unchanged ? (
              <>
                <button type="button" className="btn btn-sm" ref={focusTarget} onClick={close}>
                  Close
                </button>
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => stream.cancel()}>
                  Try something else
                </button>
              </>
            ) : (
              <>
                <button type="button" className="btn btn-sm" ref={focusTarget} onClick={() => onAccept(asReplacement(text, suggestion))}>
                  Accept
                </button>
                <button type="button" className="btn btn-secondary btn-sm" onClick={close}>
                  Reject
                </button>
              </>
            )}
          </div>
        </>
      ) : null}

      {stream.status === "error" ? (
        <>
          <div className="alert alert-error selection-ai-note" role="alert">
            <p>{failureWords(stream.error ?? "Something went wrong.", stream.failure)}</p>
          </div>
          <div className="selection-ai-footer">
            {run ? (
              <button type="button" className="btn btn-sm" ref={focusTarget} onClick={() => start(run)}>
                Try again
              </button>
            ) : null}
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => stream.cancel()}>
              Back
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
}
