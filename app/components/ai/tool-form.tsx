import { Form, useNavigation, useRevalidator } from "@remix-run/react";
import type { ReactNode } from "react";
import { AiProgress } from "./progress";
import { useAiStream } from "./use-ai-stream";

/**
 * A form that runs an AI tool. Without JavaScript it posts to the page's
 * action, which runs the tool to the end and redirects to the saved result.
 * With JavaScript it streams the same tool from its /api endpoint, shows
 * progress and the text as it arrives, then reloads the page's data.
 */
export function StreamingToolForm({
  intent,
  endpoint,
  body,
  submitLabel,
  pendingLabel,
  progressLabel,
  children,
}: {
  intent: string;
  endpoint: string;
  body: (form: FormData) => Record<string, unknown>;
  submitLabel: string;
  pendingLabel: string;
  progressLabel: string;
  children?: ReactNode;
}) {
  const stream = useAiStream();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const posting = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const running = stream.status === "streaming" || posting;

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await stream.start(endpoint, body(new FormData(event.currentTarget)));
    if (result.status === "done") revalidator.revalidate();
  }

  return (
    <div className="stack">
      <Form method="post" className="form" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value={intent} />
        {children}
        <div>
          <button type="submit" className="btn" disabled={running} aria-busy={running || undefined}>
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
      {stream.status === "error" ? (
        <div className="alert alert-error" role="alert">
          <p>{stream.error}</p>
        </div>
      ) : null}
    </div>
  );
}
