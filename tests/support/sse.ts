import { expect } from "vitest";
import type { ApiResult } from "./client";

export type SseEvent = { type: string } & Record<string, any>;

/** The `data:` events of an SSE body, in order (comments and heartbeats skipped). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .map((block) =>
      block
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n"),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data) as SseEvent);
}

/**
 * Checks the SSE contract of a finished stream and returns its events:
 * event-stream headers, content chunks concatenating to `done.fullContent`,
 * exactly one terminal event and it is the last.
 */
export function expectSseStream(res: ApiResult, terminal: "done" | "error" = "done") {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("text/event-stream");
  expect(res.headers.get("Cache-Control")).toContain("no-cache");
  expect(res.headers.get("X-Accel-Buffering")).toBe("no");
  const events = parseSse(res.text);
  const last = events.at(-1)!;
  expect(last.type, res.text).toBe(terminal);
  expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
  for (const e of events) expect(["progress", "content", "done", "error"]).toContain(e.type);
  const content = events
    .filter((e) => e.type === "content")
    .map((e) => e.content as string)
    .join("");
  if (terminal === "done") expect(last.fullContent).toBe(content);
  if (terminal === "error") expect(last.code).toBe("GENERATION_ERROR");
  return { events, content, last };
}
