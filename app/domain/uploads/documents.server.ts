import { offlineDrafter } from "~/ai/builtin/offline.server";
import { countWords } from "~/ai/builtin/document-analysis";
import { documentAnalysisPrompt, documentAnalysisSchema } from "~/ai/prompts/document-analysis";
import { asAppError, prepareAi } from "~/ai/run.server";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { sanitizeFilename } from "../files/files.server";
import { extractDocumentText } from "./extract.server";
import { sniffDocument } from "./sniff.server";
import { assertUploadQuota, recordUsage } from "./usage.server";

/**
 * POST /api/upload/document and "Start a project from a document": the type
 * is read from the bytes, the text extracted, and the text analysed by
 * whichever AI answers for the caller (the offline drafter without a key).
 * Each processed document counts once in `document_uploads`.
 */

/** Refuses before the body is read when this month's document uploads are used up. */
export function assertCanUploadDocument(actor: Actor) {
  return assertUploadQuota(actor, "document_uploads");
}

export async function analyzeDocument(actor: Actor, file: { filename: string; data: Buffer }, signal?: AbortSignal) {
  await assertCanUploadDocument(actor);
  const filename = sanitizeFilename(file.filename);
  const sniffed = await sniffDocument(file.data, filename);
  const extracted = await extractDocumentText(file.data, sniffed, signal);
  const input = { text: extracted.text, filename };
  const ai = await prepareAi({ actor, task: "document_analysis" });
  let answer;
  try {
    answer = await ai.completeJson(
      {
        name: "document_analysis",
        description: "Title, summary, sections, requirements and open questions of a document",
        schema: documentAnalysisSchema,
        prompt: () => documentAnalysisPrompt(input, { template: null, memories: [] }),
        builtin: () => offlineDrafter.documentAnalysis(input),
      },
      signal,
    );
  } catch (error) {
    throw asAppError(error);
  }
  await db.transaction().execute(async (trx) => {
    // Checked again where it is recorded, so two parallel uploads cannot both take the last one.
    await assertUploadQuota(actor, "document_uploads", 1, trx);
    await recordUsage(trx, actor, "document_uploads", 1, filename);
  });
  const { title, ...analysis } = answer.value;
  return {
    text: extracted.text,
    filename,
    type: extracted.kind,
    truncated: extracted.truncated,
    ...(extracted.pages !== undefined ? { pages: extracted.pages } : {}),
    analysis: {
      title,
      ...analysis,
      wordCount: countWords(extracted.text),
      model: answer.model,
      provider: answer.provider,
    },
  };
}
export type DocumentResult = Awaited<ReturnType<typeof analyzeDocument>>;
