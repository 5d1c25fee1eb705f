import { z } from "zod/v4";
import { DIAGRAM_TYPES, IMPROVEMENT_TYPES, LAUNCH_CONTENT_TYPES, STORY_SOURCES, TEAM_SIZES } from "~/ai/schemas";
import { providerField } from "../builder/builder.schema";

/** Inputs of the AI tools (docs/ai.md, "AI tools"). */

export const MAX_TOOL_INPUT_CHARS = 500_000;

const text = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .max(MAX_TOOL_INPUT_CHARS, `${field} must be at most ${MAX_TOOL_INPUT_CHARS.toLocaleString("en")} characters`)
    .refine((v) => v.trim().length > 0, `${field} is required`);
const optionalText = (max: number) => z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().max(max).optional());
const projectId = optionalText(100);
const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) => z.enum(values, { error: `${field} must be one of ${values.join(", ")}` });

export const coachSchema = z.object({
  prdContent: text("prdContent"),
  projectName: optionalText(200),
  projectId,
  provider: providerField,
});
export type CoachInput = z.infer<typeof coachSchema>;

export const improveSchema = z.object({
  content: text("content"),
  improvementType: oneOf("improvementType", IMPROVEMENT_TYPES),
  customPrompt: optionalText(2000),
  projectId,
  provider: providerField,
});
export type ImproveInput = z.infer<typeof improveSchema>;

export const suggestionsInputSchema = z.object({
  content: text("content"),
  projectName: optionalText(200),
  projectId,
  provider: providerField,
});
export type SuggestionsInput = z.infer<typeof suggestionsInputSchema>;

export const userStoriesSchema = z.object({
  content: text("content"),
  source: oneOf("source", STORY_SOURCES),
  projectName: optionalText(200),
  projectId,
  provider: providerField,
});
export type UserStoriesInput = z.infer<typeof userStoriesSchema>;

/** `focusAreas` as a JSON array, or comma/line separated text from a form. */
const focusAreas = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(/\r?\n|,/)
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string().trim().min(1).max(100)).max(10, "focusAreas may hold at most 10 areas").default([]),
);

export const technicalSpecsSchema = z.object({
  prdContent: text("prdContent"),
  projectName: optionalText(200),
  focusAreas,
  projectId,
  provider: providerField,
});
export type TechnicalSpecsInput = z.infer<typeof technicalSpecsSchema>;

export const roadmapInputSchema = z.object({
  prdContent: text("prdContent"),
  teamSize: oneOf("teamSize", TEAM_SIZES),
  methodology: z.string({ error: "methodology is required" }).trim().min(1, "methodology is required").max(50, "methodology must be at most 50 characters"),
  projectId,
  provider: providerField,
});
export type RoadmapInput = z.infer<typeof roadmapInputSchema>;

export const codeSpecSchema = z.object({
  content: text("content"),
  projectId,
  provider: providerField,
});
export type CodeSpecInput = z.infer<typeof codeSpecSchema>;

export const launchContentSchema = z.object({
  content: text("content"),
  contentType: oneOf("contentType", LAUNCH_CONTENT_TYPES),
  projectId,
  provider: providerField,
});
export type LaunchContentInput = z.infer<typeof launchContentSchema>;

export const wireframeSchema = z.object({
  content: text("content"),
  diagramType: oneOf("diagramType", DIAGRAM_TYPES),
  section: optionalText(200),
  projectId,
  provider: providerField,
});
export type WireframeInput = z.infer<typeof wireframeSchema>;

export const scoreInputSchema = z.object({ provider: providerField });

export const OUTPUT_KINDS = ["user_stories", "technical_specs", "code_spec", "launch_content", "wireframe", "roadmap"] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];
export const listOutputsQuery = z.object({
  kind: oneOf("kind", OUTPUT_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
