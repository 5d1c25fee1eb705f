import { http, HttpResponse } from "msw";
import { OPENAI_BASE_URL } from "./openai";

/**
 * OpenAI's audio transcriptions endpoint (POST {base}/audio/transcriptions)
 * as an msw handler. Like the real API it reads a multipart body (`file`,
 * `model`, `response_format`), refuses a missing file or model with 400 and
 * answers `verbose_json` as {task, language, duration, text, segments}
 * (or {text} for `json`). `fail(401|500)` makes the following requests fail
 * with OpenAI's error body until `reset()`.
 *
 *   const audio = createOpenAIAudioMock();
 *   server.use(audio.handler);
 *   audio.next({ text: "hello", duration: 61 });
 */

export interface AudioRequest {
  headers: Record<string, string>;
  model: string | null;
  responseFormat: string | null;
  filename: string | null;
  fileType: string | null;
  fileSize: number;
}

export function createOpenAIAudioMock(base = OPENAI_BASE_URL) {
  const requests: AudioRequest[] = [];
  let answer = { text: "Transcribed audio.", duration: 12.5, language: "english" };
  let failure: number | null = null;

  const error = (status: number, message: string, code: string | null, type = "invalid_request_error") =>
    HttpResponse.json({ error: { message, type, param: null, code } }, { status });

  const handler = http.post(`${base}/audio/transcriptions`, async ({ request }) => {
    const headers = Object.fromEntries([...request.headers].map(([k, v]) => [k.toLowerCase(), v]));
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return error(400, "Could not parse multipart form", null);
    }
    const file = form.get("file");
    const model = form.get("model");
    const recorded: AudioRequest = {
      headers,
      model: typeof model === "string" ? model : null,
      responseFormat: typeof form.get("response_format") === "string" ? (form.get("response_format") as string) : null,
      filename: file instanceof File ? file.name : null,
      fileType: file instanceof File ? file.type : null,
      fileSize: file instanceof File ? file.size : 0,
    };
    requests.push(recorded);
    if (failure === 401)
      return error(401, "Incorrect API key provided: sk-a…. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_api_key");
    if (failure !== null) return error(failure, "The server had an error while processing your request.", null, "server_error");
    if (!(file instanceof File)) return error(400, "Missing required parameter: 'file'.", "missing_required_parameter");
    if (!recorded.model) return error(400, "Missing required parameter: 'model'.", "missing_required_parameter");
    if (recorded.responseFormat === "verbose_json") {
      const words = answer.text.split(/(?<=[.!?])\s+/);
      const step = answer.duration / Math.max(1, words.length);
      return HttpResponse.json({
        task: "transcribe",
        language: answer.language,
        duration: answer.duration,
        text: answer.text,
        segments: words.map((text, id) => ({
          id,
          seek: 0,
          start: id * step,
          end: (id + 1) * step,
          text: ` ${text}`,
          tokens: [],
          temperature: 0,
          avg_logprob: -0.2,
          compression_ratio: 1.2,
          no_speech_prob: 0.01,
        })),
      });
    }
    return HttpResponse.json({ text: answer.text });
  });

  return {
    handler,
    requests,
    /** The answer for the following requests. */
    next(a: Partial<typeof answer>) {
      answer = { ...answer, ...a };
    },
    /** Following requests fail with this status (401: invalid key; anything else: server error). */
    fail(status: number) {
      failure = status;
    },
    reset() {
      requests.length = 0;
      failure = null;
      answer = { text: "Transcribed audio.", duration: 12.5, language: "english" };
    },
  };
}
