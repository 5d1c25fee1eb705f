import { offlineDrafter } from "~/ai/builtin/offline.server";
import { loadTaskContext } from "~/ai/context.server";
import type { Producer } from "~/ai/events";
import { generatePrdPrompt } from "~/ai/prompts/generate-prd";
import { type Answered, collect, prepareAi } from "~/ai/run.server";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { AppError } from "../errors";
import { type PrdOut, savePrd } from "../prd/prd.server";
import { requireEdit } from "../projects/access.server";
import type { GeneratePrdInput } from "./builder.schema";
import { qaPairs } from "./conversation.server";

/**
 * PRD generation from the project's question/answer pairs and template.
 * The result is saved as a new PRD version (never an unversioned
 * overwrite) and announced as `prd.generated`. A project that already has a
 * PRD is only regenerated when asked (`regenerate: true`); the previous PRD
 * stays in the version history.
 */
export async function startGeneratePrd(actor: Actor, input: GeneratePrdInput): Promise<Producer> {
  const { project } = await requireEdit(actor, input.projectId);
  const existing = await db.selectFrom("prds").select("currentVersionId").where("projectId", "=", project.id).executeTakeFirst();
  if (existing && !input.regenerate) {
    throw new AppError(
      "CONFLICT",
      409,
      "This project already has a PRD. Send regenerate: true to generate a new version (the current one stays in the version history).",
      { extra: { currentVersionId: existing.currentVersionId } },
    );
  }
  const pairs = (await qaPairs(project.id)).map((p) => ({ question: p.question, answer: p.answer }));
  const ctx = await loadTaskContext(actor.user.id, project, { document: true });
  const ai = await prepareAi({ actor, task: "generate_prd", projectId: project.id, provider: input.provider });
  const expected = Math.max(1, ctx.template?.sections.length ?? 8);

  return async function* (signal) {
    const result = yield* ai.streamText(
      {
        phase: "drafting",
        prompt: () => generatePrdPrompt({ style: input.style, qaPairs: pairs }, ctx),
        builtin: () => offlineDrafter.generatePrd({ style: input.style, qaPairs: pairs }, ctx),
        // Progress is the share of the expected sections written so far.
        progress: (text) => ((text.match(/^## /gm)?.length ?? 0) / expected) * 100,
      },
      signal,
    );
    yield { type: "progress", phase: "saving", percent: 99 };
    const { prd } = await savePrd(
      actor,
      project.id,
      { content: result.text, style: input.style },
      { mode: "put", source: "generate", generated: { model: ai.answered.model, truncated: result.truncated } },
    );
    yield {
      type: "done",
      fullContent: result.text,
      content: result.text,
      style: input.style,
      truncated: result.truncated,
      prd,
      version: { id: prd.versionId, number: prd.versionNumber },
      qaPairsUsed: pairs.length,
      ...ai.answered,
    };
  };
}

export interface GeneratedPrd extends Answered {
  content: string;
  style: string;
  truncated: boolean;
  prd: PrdOut;
  version: { id: string | null; number: number | null };
  qaPairsUsed: number;
}

/** Non-streaming generation: the saved PRD and what produced it. */
export async function generatePrd(actor: Actor, input: GeneratePrdInput, signal?: AbortSignal) {
  const { type: _type, fullContent: _full, ...rest } = await collect(await startGeneratePrd(actor, input), signal);
  return rest as unknown as GeneratedPrd;
}
