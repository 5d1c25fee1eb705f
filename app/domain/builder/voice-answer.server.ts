import type { Actor } from "../actor";
import { AppError } from "../errors";
import { assertFeatureEnabled, isFeatureEnabled } from "../flags/flags.server";
import { requireEdit } from "../projects/access.server";
import { assertCanTranscribe, transcribeAudio } from "../uploads/transcribe.server";

/**
 * Answering the builder by voice (docs/projects.md, "The AI builder"): a
 * recording is transcribed by the same function as POST /api/upload/transcribe
 * (same flag, quota, key and audio types) and the text is handed back for the
 * answer box. Nothing is sent as an answer here.
 */

/** Everything that can be refused before the audio is read: the project (edit rights), the `transcription` flag, quota and key. */
export async function assertCanAnswerByVoice(actor: Actor, projectId: string) {
  await requireEdit(actor, projectId);
  await assertFeatureEnabled(actor, "transcription");
  await assertCanTranscribe(actor);
}

/**
 * Whether the voice controls are offered on the builder page: null when the
 * feature is off or the person cannot answer; otherwise `reason` says why
 * transcription cannot run now (no OpenAI key, minutes used up), or is null.
 */
export async function voiceAnswerStatus(actor: Actor, projectId: string): Promise<{ reason: string | null } | null> {
  if (!(await isFeatureEnabled(actor, "transcription"))) return null;
  try {
    await requireEdit(actor, projectId);
  } catch {
    return null;
  }
  try {
    await assertCanTranscribe(actor);
    return { reason: null };
  } catch (error) {
    if (error instanceof AppError) return { reason: error.message };
    throw error;
  }
}

export async function transcribeAnswer(actor: Actor, projectId: string, file: { data: Buffer }, signal?: AbortSignal) {
  await assertCanAnswerByVoice(actor, projectId);
  const result = await transcribeAudio(actor, file, signal);
  return { transcript: result.text.trim(), duration: result.duration };
}
