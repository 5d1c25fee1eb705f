import { resolveProvider } from "~/ai/keys.server";
import { asAppError } from "~/ai/run.server";
import { toProviderError } from "~/ai/providers/errors";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { touchProviderKey } from "~/ai/stored-keys.server";
import { AppError } from "../errors";
import { sniffAudio } from "./sniff.server";
import { assertUploadQuota, recordUsage } from "./usage.server";

/**
 * POST /api/upload/transcribe: audio (sniffed by content) transcribed by
 * OpenAI's audio API through the official SDK, with the caller's provider_a
 * key (personal, then organization, then platform; sent to OPENAI_BASE_URL
 * when set). The offline drafter cannot transcribe, so without any OpenAI key
 * the request is 409 CONFLICT. Minutes are metered as ceil(duration / 60).
 */

export const TRANSCRIPTION_MODEL = "whisper-1";

async function openaiKey(actor: Actor) {
  const resolved = await resolveProvider({ userId: actor.user.id, orgId: actor.org.id }, { provider: "provider_a" });
  if (resolved.source === "builtin") {
    throw new AppError(
      "CONFLICT",
      409,
      "Transcription needs an OpenAI API key: add a personal or organization key in Settings → AI, or ask the operator to set OPENAI_API_KEY.",
    );
  }
  return resolved;
}

/** Everything that can be refused before the audio is read: quota (at least one minute left) and a key. */
export async function assertCanTranscribe(actor: Actor) {
  await assertUploadQuota(actor, "transcription_minutes", 1);
  await openaiKey(actor);
}

export async function transcribeAudio(actor: Actor, file: { data: Buffer }, signal?: AbortSignal) {
  await assertUploadQuota(actor, "transcription_minutes", 1);
  const resolved = await openaiKey(actor);
  const audio = await sniffAudio(file.data);
  const { credentials, keyId } = resolved;
  let result: { text: string; duration?: number };
  try {
    const { default: OpenAI, toFile } = await import("openai");
    const client = new OpenAI({
      apiKey: credentials.apiKey,
      baseURL: credentials.baseUrl,
      timeout: Math.max(credentials.timeoutMs, 120_000),
      maxRetries: credentials.maxRetries,
    });
    result = await client.audio.transcriptions.create(
      {
        file: await toFile(file.data, `audio.${audio.ext}`, { type: audio.mime }),
        model: TRANSCRIPTION_MODEL,
        response_format: "verbose_json",
      },
      { signal },
    );
  } catch (error) {
    throw asAppError(toProviderError("provider_a", error, credentials.apiKey, signal));
  }
  if (typeof result?.text !== "string") {
    throw new AppError("PROVIDER_ERROR", 502, "OpenAI answered the transcription without text", { extra: { provider: "provider_a" } });
  }
  const duration = Number.isFinite(result.duration) ? Math.max(0, Number(result.duration)) : 0;
  const minutes = Math.ceil(duration / 60);
  await db.transaction().execute((trx) => recordUsage(trx, actor, "transcription_minutes", minutes, `audio.${audio.ext}`));
  if (keyId) await touchProviderKey(keyId);
  return { text: result.text, duration, minutes, language: (result as { language?: string }).language ?? null };
}
