import { createParser } from "eventsource-parser";
import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Reads one of the /api SSE streams from the browser (POST with a JSON
 * body, same-origin cookie) and exposes the text as it arrives, the latest
 * progress, and the final `done` or `error` event. Used to upgrade forms
 * that also work without JavaScript.
 */

/**
 * What went wrong, beside the message: a refused request's HTTP status, its
 * error code (RATE_LIMITED, LIMIT_REACHED, NOT_FOUND…) and, for 429, the
 * seconds `Retry-After` asks to wait; a failure inside the stream has status
 * 200 and code GENERATION_ERROR; a network failure has neither.
 */
export interface AiStreamFailure {
  status: number | null;
  code: string | null;
  retryAfter: number | null;
  /** The plan metric of a LIMIT_REACHED error (e.g. "ai_tokens"). */
  metric: string | null;
}

export interface AiStreamState {
  status: "idle" | "streaming" | "done" | "error";
  text: string;
  progress: { phase: string; percent: number } | null;
  done: Record<string, unknown> | null;
  error: string | null;
  failure: AiStreamFailure | null;
}

const IDLE: AiStreamState = { status: "idle", text: "", progress: null, done: null, error: null, failure: null };
const NO_FAILURE: AiStreamFailure = { status: null, code: null, retryAfter: null, metric: null };

async function refusal(response: Response): Promise<{ error: string; failure: AiStreamFailure }> {
  const retry = Number(response.headers.get("Retry-After"));
  const failure: AiStreamFailure = { ...NO_FAILURE, status: response.status, retryAfter: Number.isFinite(retry) && retry > 0 ? retry : null };
  try {
    const body = (await response.json()) as { error?: string; code?: string; metric?: string };
    return {
      error: body.error ?? `Request failed (${response.status})`,
      failure: { ...failure, code: body.code ?? null, metric: body.metric ?? null },
    };
  } catch {
    return { error: `Request failed (${response.status})`, failure };
  }
}

export function useAiStream() {
  const [state, setState] = useState<AiStreamState>(IDLE);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (url: string, body: unknown) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ ...IDLE, status: "streaming", progress: { phase: "starting", percent: 0 } });
    let final: AiStreamState = { ...IDLE, status: "streaming" };
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      if (!response.ok || !response.body) {
        final = { ...final, status: "error", ...(await refusal(response)) };
        setState(final);
        return final;
      }
      let text = "";
      const parser = createParser({
        onEvent(event) {
          const data = JSON.parse(event.data) as { type: string } & Record<string, unknown>;
          if (data.type === "content") {
            text += String(data.content ?? "");
            final = { ...final, text };
          } else if (data.type === "progress") {
            final = { ...final, progress: { phase: String(data.phase), percent: Number(data.percent) } };
          } else if (data.type === "done") {
            final = { ...final, status: "done", done: data, progress: { phase: "done", percent: 100 } };
          } else if (data.type === "error") {
            final = {
              ...final,
              status: "error",
              error: String(data.message ?? "Generation failed"),
              failure: { ...NO_FAILURE, status: response.status, code: String(data.code ?? "GENERATION_ERROR") },
            };
          }
          setState(final);
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      if (final.status === "streaming") {
        final = { ...final, status: "error", error: "The connection closed before the answer was complete. Try again.", failure: NO_FAILURE };
        setState(final);
      }
    } catch (error) {
      if (abort.signal.aborted) return final;
      final = { ...final, status: "error", error: error instanceof Error ? error.message : "Network error", failure: NO_FAILURE };
      setState(final);
    }
    return final;
  }, []);

  const cancel = useCallback(() => {
    controller.current?.abort();
    setState(IDLE);
  }, []);

  return { ...state, start, cancel };
}
