import { Form, useNavigation, useRevalidator } from "@remix-run/react";
import { type ReactNode, useRef } from "react";
import type { FormState } from "~/components/forms";
import { AiProgress } from "./progress";
import { failureMessage, isInputError, type LastGood, RunError, runErrorId, runFailureWords } from "./run-error";
import { useAiStream } from "./use-ai-stream";

/**
 * A form that runs an AI tool. Without JavaScript it posts to the page's
 * action, which runs the tool to the end and redirects to the saved result.
 * With JavaScript it streams the same tool from its /api endpoint, shows
 * progress and the text as it arrives, then reloads the page's data.
 * A failed run (the page's action `failure` for this intent, or the stream's
 * error) is shown right under the button, with the last good result's time
 * and "Try again" (RunError).
 */
export function StreamingToolForm({
  intent,
  endpoint,
  body,
  submitLabel,
  pendingLabel,
  progressLabel,
  failure,
  lastGood,
  onRunEnd,
  children,
}: {
  intent: string;
  endpoint: string;
  body: (form: FormData) => Record<string, unknown>;
  submitLabel: string;
  pendingLabel: string;
  progressLabel: string;
  /** The page action's failure, when it was this tool's (no JavaScript). */
  failure?: FormState | null;
  /** The newest saved result of this tool, kept on the page when a run fails. */
  lastGood?: LastGood | null;
  /** Told when a streamed run ends, and whether it failed (useFailedRuns). */
  onRunEnd?: (intent: string, failed: boolean) => void;
  children?: ReactNode;
}) {
  const stream = useAiStream();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const lastBody = useRef<Record<string, unknown> | null>(null);
  const posting = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const running = stream.status === "streaming" || posting;
  const errorId = runErrorId(intent);
  const serverFailure = failure?.intent === intent && failure.formError && stream.status === "idle" ? failure : null;
  const failed = stream.status === "error" || Boolean(serverFailure);

  async function run(payload: Record<string, unknown>) {
    lastBody.current = payload;
    const result = await stream.start(endpoint, payload);
    if (result.status === "done") revalidator.revalidate();
    if (result.status === "done" || result.status === "error") onRunEnd?.(intent, result.status === "error");
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(body(new FormData(event.currentTarget)));
  }

  const retryValues = serverFailure?.values ?? { intent };
  return (
    <div className="stack">
      <Form method="post" className="form" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value={intent} />
        {children}
        <div>
          <button type="submit" className="btn" disabled={running} aria-busy={running || undefined} aria-describedby={failed && !running ? errorId : undefined}>
            {running ? pendingLabel : submitLabel}
          </button>
        </div>
      </Form>
      {posting ? <AiProgress label={progressLabel} phase="working" percent={10} /> : null}
      {stream.status === "streaming" ? (
        <>
          <AiProgress label={progressLabel} phase={stream.progress?.phase ?? "starting"} percent={stream.progress?.percent ?? 0} />
          {stream.text ? (
            <pre className="stream-preview" aria-live="polite">
              {stream.text}
            </pre>
          ) : null}
        </>
      ) : null}
      {failed && !running ? (
        <RunError
          id={errorId}
          message={serverFailure ? failureMessage(serverFailure) : runFailureWords(stream.error ?? "", stream.failure)}
          lastGood={lastGood}
          retry={
            serverFailure && isInputError(serverFailure)
              ? null
              : { values: retryValues, onRetry: stream.status === "error" && lastBody.current ? () => void run(lastBody.current!) : undefined }
          }
        />
      ) : null}
    </div>
  );
}
