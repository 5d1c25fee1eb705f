import { Form } from "@remix-run/react";
import { type ReactNode, useCallback, useRef, useState } from "react";
import type { FormState } from "~/components/forms";
import { DateTime } from "~/components/project-badges";
import type { AiStreamFailure } from "./use-ai-stream";

/**
 * How a failed AI run is reported, the same way on every AI page (docs/ai.md,
 * "When a run fails"): the message sits right under the button that started
 * the run (role="alert", and the button points at it with aria-describedby),
 * says that the last good result is still on the page and from when, and
 * offers "Try again" with the same inputs. Without JavaScript "Try again" is
 * a form that posts the failed run's values again; with JavaScript the page
 * passes `onRetry` and the run restarts in place (the stream).
 */

/** The result still shown while the new run failed: when it was made, and where it is when not right below. */
export interface LastGood {
  at: string;
  href?: string;
  /** What it is, when not "Your last good result" ("The current PRD (version 3)"). */
  what?: string;
  /** The link's words, when `href` leaves the page. */
  linkText?: string;
}

export interface Retry {
  /** The failed run's inputs (its `intent` included), posted again without JavaScript. */
  values: Record<string, string>;
  /** With JavaScript: run again in place instead of posting. */
  onRetry?: () => void;
  busy?: boolean;
}

/** The id of a run's error, for the aria-describedby of the control that starts the run. */
export const runErrorId = (intent: string) => `run-error-${intent.replace(/[^a-z0-9_-]/gi, "-")}`;

const seconds = (n: number) => (n === 1 ? "1 second" : n < 60 ? `${n} seconds` : `${Math.ceil(n / 60)} minute${n > 60 ? "s" : ""}`);

/**
 * A failed streamed run in plain words: the server's own message for a
 * refused request or a provider failure, and what to do for the failures a
 * person can act on (offline, too many requests, the month's allowance).
 */
export function runFailureWords(message: string, failure: AiStreamFailure | null): string {
  const code = failure?.code ?? null;
  const status = failure?.status ?? null;
  if (status === null && code === null) {
    return `PRD Studio could not be reached (${message}). Check your connection — you may be offline — then try again.`;
  }
  if (code === "RATE_LIMITED" || status === 429) {
    return failure?.retryAfter ? `Too many AI requests right now. Try again in ${seconds(failure.retryAfter)}.` : `Too many AI requests right now: ${message}`;
  }
  if (code === "LIMIT_REACHED" && (!failure?.metric || failure.metric === "ai_tokens")) {
    return "Your organization has used this month's AI allowance on its plan. An owner can upgrade the plan, or you can add your own AI provider key in Settings → AI providers.";
  }
  if (code === "GENERATION_ERROR" || code === "PROVIDER_ERROR" || status === 502) return `The AI provider could not answer: ${message}`;
  return message;
}

/** A failed form run's message; its field errors too (a tool's fields are few, and sit right above it). */
export function failureMessage(state: FormState) {
  const fields = Object.values(state.fieldErrors ?? {});
  return fields.length ? fields.join(" ") : (state.formError ?? "");
}

/** A failure of the inputs themselves: the message says what to change, and "Try again" as it was would fail the same way. */
export const isInputError = (state: FormState) => Object.keys(state.fieldErrors ?? {}).length > 0;

/** "Last good result, from <time>": said on a result that stays on the page while a newer run failed. */
export function LastGoodNote({ at }: { at: string }) {
  return (
    <p className="last-good" data-testid="last-good">
      <span className="badge badge-warning">Last good result</span> from <DateTime iso={at} />. The newer run failed, so this one is kept.
    </p>
  );
}

/** The error of one failed run, shown right under the control that started it. */
export function RunError({ id, message, lastGood, retry }: { id: string; message: ReactNode; lastGood?: LastGood | null; retry?: Retry | null }) {
  return (
    <div className="alert alert-error run-error" role="alert" id={id} data-testid="run-error">
      <p>{message}</p>
      {lastGood ? (
        <p>
          {lastGood.what ?? "Your last good result"}, from <DateTime iso={lastGood.at} />, is kept
          {lastGood.href ? (
            <>
              : <a href={lastGood.href}>{lastGood.linkText ?? "see it on this page"}</a>.
            </>
          ) : (
            "."
          )}
        </p>
      ) : null}
      {retry ? <RetryForm retry={retry} /> : null}
    </div>
  );
}

function RetryForm({ retry }: { retry: Retry }) {
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    if (!retry.onRetry) return;
    event.preventDefault();
    retry.onRetry();
  };
  return (
    <Form method="post" className="run-error-retry" onSubmit={onSubmit}>
      {Object.entries(retry.values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn btn-sm" disabled={retry.busy} aria-busy={retry.busy || undefined}>
        {retry.busy ? "Trying again…" : "Try again"}
      </button>
    </Form>
  );
}

/**
 * A result the page got from its action (suggestions, an improvement
 * preview; `at` says when it was made), kept on screen with JavaScript while
 * the next run of the same tool `failed`; anything else (a new result, or
 * no action data after a navigation such as Reject) replaces or clears it.
 * Without JavaScript every answer is a new page, so only results saved with
 * the project are kept.
 */
export function useLastGood<T extends { at: string }>(value: T | null | undefined, failed: boolean): T | null {
  const last = useRef<T | null>(null);
  if (value != null) last.current = value;
  else if (!failed) last.current = null;
  return last.current;
}

/**
 * Which runs on a page failed last: the action's failure (a form posted
 * without JavaScript) or a stream's outcome, reported by StreamingToolForm
 * through `onRunEnd`. A stream's outcome wins for its own intent, so a retry
 * that worked clears an earlier failure of the same tool.
 */
export function useFailedRuns(failure: FormState | null | undefined) {
  const [ran, setRan] = useState<{ intent: string; failed: boolean } | null>(null);
  const fromServer = failure?.formError && failure.intent ? failure.intent : null;
  const isFailed = (intent: string) => (ran?.intent === intent ? ran.failed : fromServer === intent);
  const onRunEnd = useCallback((intent: string, failed: boolean) => setRan({ intent, failed }), []);
  return { isFailed, onRunEnd };
}
