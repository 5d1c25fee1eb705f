/**
 * The AI part of `npm run load`: SSE clients that loop for the whole run,
 * each on a project of its own (so generation never races the PRD updates):
 * answer the builder's question (POST /api/projects/{id}/conversation/stream),
 * then generate the PRD from the answers (POST /api/generate-prd/stream,
 * regenerate: true). Every stream is read to its end with fetch(); a stream
 * counts as complete only when it answered 200 and ended with a `done` event.
 */
import { createParser } from "eventsource-parser";

export interface StreamSample {
  kind: "conversation" | "generate";
  ok: boolean;
  status: number;
  /** Response headers → first body byte, ms from the request. */
  ttfb: number;
  /** First `content` event (first token), ms from the request. */
  firstToken: number;
  total: number;
  chunks: number;
  error?: string;
}

async function stream(url: string, auth: string, body: unknown, kind: StreamSample["kind"]): Promise<StreamSample> {
  const started = performance.now();
  const sample: StreamSample = { kind, ok: false, status: 0, ttfb: NaN, firstToken: NaN, total: NaN, chunks: 0 };
  try {
    const res = await fetch(url, { method: "POST", headers: { Authorization: auth, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    sample.status = res.status;
    if (res.status !== 200) {
      sample.error = (await res.text()).slice(0, 300);
      return sample;
    }
    let done = false;
    const parser = createParser({
      onEvent(event) {
        const data = JSON.parse(event.data);
        if (data.type === "content") {
          if (sample.chunks === 0) sample.firstToken = performance.now() - started;
          sample.chunks += 1;
        } else if (data.type === "done") done = true;
        else if (data.type === "error") sample.error = `${data.code}: ${data.message}`;
      },
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      if (Number.isNaN(sample.ttfb)) sample.ttfb = performance.now() - started;
      parser.feed(value);
    }
    sample.ok = done && !sample.error;
    if (!done && !sample.error) sample.error = "the stream ended without a done event";
  } catch (error) {
    sample.error = String(error);
  }
  sample.total = performance.now() - started;
  return sample;
}

/** One client per project, looping until `until` (performance.now() ms), with that project's editor key. */
export async function runStreams(base: string, projects: { id: string; auth: string }[], until: number) {
  const samples: StreamSample[] = [];
  await Promise.all(
    projects.map(async ({ id: projectId, auth }) => {
      for (let round = 1; performance.now() < until; round++) {
        samples.push(
          await stream(
            `${base}/api/projects/${projectId}/conversation/stream`,
            auth,
            { message: `Round ${round}: shoppers abandon the cart when shipping costs appear late; we want fewer drop-offs at checkout.` },
            "conversation",
          ),
        );
        if (performance.now() >= until) break;
        samples.push(await stream(`${base}/api/generate-prd/stream`, auth, { projectId, regenerate: true, style: "lean" }, "generate"));
      }
    }),
  );
  return samples;
}
