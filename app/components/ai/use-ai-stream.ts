import { createParser } from "eventsource-parser";
import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Reads one of the /api SSE streams from the browser (POST with a JSON
 * body, same-origin cookie) and exposes the text as it arrives, the latest
 * progress, and the final `done` or `error` event. Used to upgrade forms
 * that also work without JavaScript.
 */

export interface AiStreamState {
  status: "idle" | "streaming" | "done" | "error";
  text: string;
  progress: { phase: string; percent: number } | null;
  done: Record<string, unknown> | null;
  error: string | null;
}

const IDLE: AiStreamState = { status: "idle", text: "", progress: null, done: null, error: null };

async function errorMessage(response: Response) {
  try {
    const body = (await response.json()) as { error?: string };
    return body.error ?? `Request failed (${response.status})`;
  } catch {
    return `Request failed (${response.status})`;
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
        final = { ...final, status: "error", error: await errorMessage(response) };
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
            final = { ...final, status: "error", error: String(data.message ?? "Generation failed") };
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
        final = { ...final, status: "error", error: "The connection closed before the answer was complete. Try again." };
        setState(final);
      }
    } catch (error) {
      if (abort.signal.aborted) return final;
      final = { ...final, status: "error", error: error instanceof Error ? error.message : "Network error" };
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
