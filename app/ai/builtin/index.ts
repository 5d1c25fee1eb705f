import { coach } from "./coach";
import type { BuiltinDrafter } from "./contract";
import { documentAnalysis } from "./document-analysis";
import { builderTurn, chat, firstQuestion } from "./interview";
import { improve } from "./improve";
import { launchContent } from "./launch";
import { extractMemories } from "./memories";
import { wireframe } from "./mermaid";
import { generatePrd } from "./prd";
import { roadmap } from "./roadmap";
import { score } from "./score";
import { codeSpec, technicalSpecs, userStories } from "./specs";
import { suggestions } from "./suggestions";

/**
 * The built-in offline drafter: answers every AI task when no provider key
 * applies. Deterministic, synchronous, grounded in its input. One module per
 * task; `doc.ts` reads Markdown, `analysis.ts` measures a PRD.
 */
export const builtinDrafter: BuiltinDrafter & { documentAnalysis: typeof documentAnalysis } = {
  chat,
  firstQuestion,
  builderTurn,
  generatePrd,
  coach,
  improve,
  suggestions,
  userStories,
  technicalSpecs,
  roadmap,
  codeSpec,
  launchContent,
  wireframe,
  score,
  extractMemories,
  documentAnalysis,
};
