import { offlineDrafter } from "~/ai/builtin/offline.server";
import type { TaskContext } from "~/ai/context.server";
import type { Producer } from "~/ai/events";
import { codeSpecPrompt } from "~/ai/prompts/code-spec";
import { launchContentPrompt } from "~/ai/prompts/launch-content";
import { technicalSpecsPrompt } from "~/ai/prompts/technical-specs";
import { userStoriesPrompt } from "~/ai/prompts/user-stories";
import { wireframePrompt } from "~/ai/prompts/wireframe";
import { prepareAi, type PromptBuilder } from "~/ai/run.server";
import { fenceFilter, type TextFilter } from "~/ai/text";
import type { ProviderId } from "~/ai/types";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import type { CodeSpecInput, LaunchContentInput, OutputKind, TechnicalSpecsInput, UserStoriesInput, WireframeInput } from "./ai-tools.schema";
import { OUTPUT_TITLES, saveOutput, toolScope } from "./outputs.server";

/**
 * The streaming writing tools: user stories, technical specs, code spec,
 * launch content and diagrams. Each streams Markdown (or Mermaid for
 * diagrams) and, with `projectId`, saves the result to the project.
 */

interface WritingTool<I> {
  task: string;
  kind: OutputKind;
  variant?: (input: I) => string;
  projectName?: (input: I) => string | undefined;
  prompt: (input: I, ctx: TaskContext) => ReturnType<PromptBuilder>;
  builtin: (input: I, ctx: TaskContext) => Promise<string>;
  filter?: () => TextFilter;
  /** Extra fields of the done event. */
  done?: (input: I) => Record<string, unknown>;
}

type ToolInput = { projectId?: string; provider?: ProviderId };

async function startWritingTool<I extends ToolInput>(actor: Actor, tool: WritingTool<I>, input: I): Promise<Producer> {
  const { project, ctx } = await toolScope(actor, input.projectId, tool.projectName?.(input));
  const ai = await prepareAi({ actor, task: tool.task, projectId: project?.id, provider: input.provider });
  return async function* (signal) {
    const result = yield* ai.streamText(
      { phase: "writing", prompt: () => tool.prompt(input, ctx), builtin: () => tool.builtin(input, ctx), filter: tool.filter },
      signal,
    );
    const variant = tool.variant?.(input) ?? null;
    const output = project
      ? await db.transaction().execute((trx) =>
          saveOutput(trx, {
            project,
            actor,
            kind: tool.kind,
            variant,
            title: `${OUTPUT_TITLES[tool.kind]}${variant ? ` (${variant.replace(/_/g, " ")})` : ""}`,
            content: result.text,
            model: ai.answered.model,
            truncated: result.truncated,
          }),
        )
      : null;
    yield {
      type: "done",
      fullContent: result.text,
      truncated: result.truncated,
      outputId: output?.id ?? null,
      ...tool.done?.(input),
      ...ai.answered,
    };
  };
}

const userStories: WritingTool<UserStoriesInput> = {
  task: "user_stories",
  kind: "user_stories",
  variant: (i) => i.source,
  projectName: (i) => i.projectName,
  prompt: (i, ctx) => userStoriesPrompt({ content: i.content, source: i.source, projectName: i.projectName ?? ctx.projectName }, ctx),
  builtin: (i, ctx) => offlineDrafter.userStories({ content: i.content, source: i.source }, ctx),
  done: (i) => ({ source: i.source }),
};

const technicalSpecs: WritingTool<TechnicalSpecsInput> = {
  task: "technical_specs",
  kind: "technical_specs",
  projectName: (i) => i.projectName,
  prompt: (i, ctx) => technicalSpecsPrompt({ prdContent: i.prdContent, projectName: i.projectName ?? ctx.projectName, focusAreas: i.focusAreas }, ctx),
  builtin: (i, ctx) => offlineDrafter.technicalSpecs({ prdContent: i.prdContent, focusAreas: i.focusAreas }, ctx),
  done: (i) => ({ focusAreas: i.focusAreas }),
};

const codeSpec: WritingTool<CodeSpecInput> = {
  task: "code_spec",
  kind: "code_spec",
  prompt: (i, ctx) => codeSpecPrompt({ content: i.content }, ctx),
  builtin: (i, ctx) => offlineDrafter.codeSpec({ content: i.content }, ctx),
};

const launchContent: WritingTool<LaunchContentInput> = {
  task: "launch_content",
  kind: "launch_content",
  variant: (i) => i.contentType,
  prompt: (i, ctx) => launchContentPrompt({ content: i.content, contentType: i.contentType }, ctx),
  builtin: (i, ctx) => offlineDrafter.launchContent({ content: i.content, contentType: i.contentType }, ctx),
  done: (i) => ({ contentType: i.contentType }),
};

const wireframe: WritingTool<WireframeInput> = {
  task: "wireframe",
  kind: "wireframe",
  variant: (i) => i.diagramType,
  prompt: (i, ctx) => wireframePrompt({ content: i.content, diagramType: i.diagramType, section: i.section }, ctx),
  builtin: (i, ctx) => offlineDrafter.wireframe({ content: i.content, diagramType: i.diagramType, section: i.section }, ctx),
  // Models like to wrap diagrams in ```mermaid fences; the stream must be Mermaid only.
  filter: fenceFilter,
  done: (i) => ({ diagramType: i.diagramType, format: "mermaid" }),
};

export const startUserStories = (actor: Actor, input: UserStoriesInput) => startWritingTool(actor, userStories, input);
export const startTechnicalSpecs = (actor: Actor, input: TechnicalSpecsInput) => startWritingTool(actor, technicalSpecs, input);
export const startCodeSpec = (actor: Actor, input: CodeSpecInput) => startWritingTool(actor, codeSpec, input);
export const startLaunchContent = (actor: Actor, input: LaunchContentInput) => startWritingTool(actor, launchContent, input);
export const startWireframe = (actor: Actor, input: WireframeInput) => startWritingTool(actor, wireframe, input);
