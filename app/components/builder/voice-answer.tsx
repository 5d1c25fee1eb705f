import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { FormState } from "~/components/forms";
import { formatBytes } from "~/utils/format";
import { clock, MAX_RECORDING_SECONDS, useRecorder } from "./use-recorder";

/** What the builder's action answers a recording with: the transcript, or the error as form state. */
export type TranscribeResult = { intent: "transcribe"; transcript: string } | FormState;

export const isTranscript = (r: unknown): r is { intent: "transcribe"; transcript: string } =>
  Boolean(r && typeof r === "object" && "transcript" in r && typeof (r as { transcript: unknown }).transcript === "string");

/**
 * Answering by voice, beside the answer box. "Upload a recording" is a form
 * posted to the builder's action (works without JavaScript: the page comes
 * back with the transcript in the answer box). With JavaScript the same form
 * goes through a fetcher, and "Record answer" records from the microphone
 * and posts the recording the same way. The transcript is only put in the
 * box (`onTranscript`), never sent.
 */
export function VoiceAnswer({
  reason,
  maxBytes,
  result,
  onTranscript,
}: {
  /** Why transcription cannot run now (no OpenAI key, minutes used up); null when it can. */
  reason: string | null;
  maxBytes: number;
  /** The page's action data after a post without JavaScript. */
  result: TranscribeResult | null;
  onTranscript: (text: string) => void;
}) {
  const fetcher = useFetcher<TranscribeResult>({ key: "voice-answer" });
  const [hydrated, setHydrated] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  const handled = useRef<unknown>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const tooBig = `The recording is larger than ${formatBytes(maxBytes)}. Record a shorter answer or upload a smaller file.`;

  function send(file: File) {
    if (file.size > maxBytes) return setClientError(tooBig);
    setClientError(null);
    const form = new FormData();
    form.set("intent", "transcribe");
    form.set("file", file);
    fetcher.submit(form, { method: "post", encType: "multipart/form-data" });
  }
  const recorder = useRecorder(send);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (recorder.status === "recording") stopButton.current?.focus();
  }, [recorder.status]);
  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || !data || handled.current === data) return;
    handled.current = data;
    if (isTranscript(data) && data.transcript) onTranscript(data.transcript);
  }, [fetcher.state, fetcher.data, onTranscript]);

  const data = fetcher.data ?? result;
  const transcribing = fetcher.state !== "idle";
  const serverError = data && !isTranscript(data) ? (data.fieldErrors?.file ?? data.formError ?? null) : null;
  if (reason) {
    return (
      <section className="voice-answer" aria-labelledby="voice-heading">
        <h3 id="voice-heading">Answer by voice</h3>
        <p className="muted">{reason}</p>
        {serverError && serverError !== reason ? (
          <p className="field-error" id="voice-error" role="alert">
            {serverError}
          </p>
        ) : null}
      </section>
    );
  }
  const emptyTranscript = isTranscript(data) && !data.transcript;
  const error =
    clientError ??
    recorder.error ??
    (transcribing ? null : emptyTranscript ? "No words were recognised in the recording. Try again closer to the microphone." : serverError);
  const status = transcribing
    ? "Transcribing the recording…"
    : recorder.status === "recording"
      ? "Recording. Press Stop recording when you are done."
      : isTranscript(data) && data.transcript
        ? "The transcript is in the answer box: check it, edit it, then send your answer."
        : "";

  return (
    <section className="voice-answer" aria-labelledby="voice-heading">
      <h3 id="voice-heading">Answer by voice</h3>
      {hydrated ? (
        <div className="inline voice-record">
          {recorder.status === "recording" ? (
            <>
              <span className="voice-recording" role="timer" aria-label={`Recording for ${clock(recorder.seconds)}`}>
                <span className="voice-dot" aria-hidden="true" />
                Recording {clock(recorder.seconds)}
                <span className="muted"> / {clock(MAX_RECORDING_SECONDS)}</span>
              </span>
              <button type="button" className="btn btn-sm" ref={stopButton} onClick={recorder.stop}>
                Stop recording
              </button>
              <button type="button" className="btn btn-secondary btn-sm" onClick={recorder.cancel}>
                Discard recording
              </button>
            </>
          ) : (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => {
                setClientError(null);
                void recorder.start();
              }}
              disabled={transcribing || recorder.status === "starting"}
              aria-describedby={error ? "voice-error" : undefined}
            >
              {recorder.status === "starting" ? "Waiting for the microphone…" : "Record answer"}
            </button>
          )}
        </div>
      ) : null}
      <fetcher.Form
        method="post"
        encType="multipart/form-data"
        className="voice-upload"
        onSubmit={(event) => {
          const file = (event.currentTarget.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
          if (file && file.size > maxBytes) {
            event.preventDefault();
            setClientError(tooBig);
          } else setClientError(null);
        }}
      >
        <input type="hidden" name="intent" value="transcribe" />
        <div className="field">
          <label htmlFor="voice-file">Upload a recording</label>
          <input
            id="voice-file"
            type="file"
            name="file"
            accept="audio/*"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "voice-file-hint voice-error" : "voice-file-hint"}
          />
          <span className="hint" id="voice-file-hint">
            MP3, M4A, WAV, WebM, Ogg or FLAC, at most {formatBytes(maxBytes)}. The transcript goes into the answer box for you to check before sending.
          </span>
        </div>
        <button type="submit" className="btn btn-secondary btn-sm" disabled={transcribing}>
          {transcribing ? "Transcribing…" : "Transcribe recording"}
        </button>
      </fetcher.Form>
      {error ? (
        <p className="field-error" id="voice-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="voice-status" role="status">
        {status}
      </p>
    </section>
  );
}
