/**
 * What AI work yields, streamed or not (docs/ai.md, "Streaming (SSE)"):
 * progress, content chunks that concatenate in order, then exactly one
 * `done` or `error`. The SSE helper writes these as `data: <json>`;
 * non-streaming endpoints and no-JS forms consume them to the end.
 */
export type AiEvent =
  | { type: "progress"; phase: string; percent: number }
  | { type: "content"; content: string }
  | ({ type: "done" } & Record<string, unknown>)
  | { type: "error"; message: string; code: string };

export type DoneEvent = Extract<AiEvent, { type: "done" }>;

/** A stream of AI work that stops when `signal` aborts (the client went away). */
export type Producer = (signal: AbortSignal) => AsyncIterable<AiEvent>;
