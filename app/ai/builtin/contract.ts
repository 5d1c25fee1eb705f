import type {
  DiagramType,
  ImprovementType,
  LaunchContentType,
  MemoryCandidate,
  MemoryCategory,
  MemoryType,
  PrdStyle,
  Review,
  Roadmap,
  ScoreResult,
  StorySource,
  SuggestionDraft,
  TeamSize,
} from "../schemas";
import type { ChatMessage } from "../types";

/**
 * What the offline drafter must do for each task. It is deterministic (same
 * input, same output), synchronous, and grounded in its input: it quotes and
 * reorganises what the user wrote, measures the PRD it is given, and marks
 * gaps as open questions instead of inventing facts.
 */

export interface BuiltinTemplate {
  name: string;
  sections: string[];
  initialQuestion: string;
}

export interface BuiltinMemory {
  memoryType: MemoryType;
  category: MemoryCategory;
  content: string;
  importance: number;
}

/** The context every task gets: the project, its template and the user's active memories (most important first). */
export interface BuiltinContext {
  projectName?: string;
  projectDescription?: string;
  template?: BuiltinTemplate | null;
  memories: BuiltinMemory[];
  /** The project's current PRD (an imported document, or a draft the user edited): read before anything is asked. */
  document?: string;
}

export interface QaPair {
  question: string;
  answer: string;
}

export interface BuilderTurn {
  /** What the assistant says: a short acknowledgement grounded in the answer, then the next question (or a note that the PRD can be generated). */
  response: string;
  /** The question asked in `response`; null when the interview is complete. */
  nextQuestion: string | null;
  /** Template sections the answers so far cover, and those still open. */
  covered: string[];
  remaining: string[];
}

export interface BuiltinDrafter {
  /** General chat answer to the last user message, with the conversation as context. */
  chat(input: { messages: ChatMessage[] }, ctx: BuiltinContext): string;
  /** The first question of a new conversation (the template's initialQuestion when there is one). */
  firstQuestion(ctx: BuiltinContext): string;
  /** One builder step: `answer` answers `question`; `qaPairs` are the earlier pairs (oldest first). */
  builderTurn(input: { qaPairs: QaPair[]; question: string; answer: string }, ctx: BuiltinContext): BuilderTurn;
  /** Markdown PRD: H1 title, then the template's sections as H2 (or a default outline per style), filled from the answers. */
  generatePrd(input: { style: PrdStyle; qaPairs: QaPair[] }, ctx: BuiltinContext): string;
  coach(input: { prdContent: string }, ctx: BuiltinContext): Review;
  improve(input: { content: string; improvementType: ImprovementType; customPrompt?: string }, ctx: BuiltinContext): string;
  /** 3 to 5 suggestions. */
  suggestions(input: { content: string }, ctx: BuiltinContext): SuggestionDraft[];
  userStories(input: { content: string; source: StorySource }, ctx: BuiltinContext): string;
  technicalSpecs(input: { prdContent: string; focusAreas: string[] }, ctx: BuiltinContext): string;
  roadmap(input: { prdContent: string; teamSize: TeamSize; methodology: string }, ctx: BuiltinContext): Roadmap;
  codeSpec(input: { content: string }, ctx: BuiltinContext): string;
  launchContent(input: { content: string; contentType: LaunchContentType }, ctx: BuiltinContext): string;
  /** Mermaid source only (no code fences) that Mermaid's own parser accepts. */
  wireframe(input: { content: string; diagramType: DiagramType; section?: string }, ctx: BuiltinContext): string;
  score(input: { prdContent: string }, ctx: BuiltinContext): ScoreResult;
  extractMemories(input: { conversation: ChatMessage[] }, ctx: BuiltinContext): MemoryCandidate[];
}
