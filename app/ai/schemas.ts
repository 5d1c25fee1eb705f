import { z } from "zod/v4";

/**
 * The enumerations of the AI endpoints and the shapes of the structured
 * (JSON) answers. The same schemas validate a provider's answer, describe it
 * to the provider as JSON Schema, type the offline drafter's output and
 * document the API.
 */

export { PRD_STYLES } from "~/domain/prd/prd.schema";
export type PrdStyle = typeof import("~/domain/prd/prd.schema").PRD_STYLES[number];

export const IMPROVEMENT_TYPES = [
  "improve_writing",
  "make_concise",
  "add_detail",
  "fix_grammar",
  "make_technical",
  "simplify",
  "add_user_focus",
  "add_metrics",
] as const;
export type ImprovementType = (typeof IMPROVEMENT_TYPES)[number];

export const IMPROVEMENT_LABELS: Record<ImprovementType, { label: string; description: string }> = {
  improve_writing: { label: "Improve writing", description: "Clearer sentences and better flow, same meaning." },
  make_concise: { label: "Make concise", description: "Cut filler and repetition; keep every fact." },
  add_detail: { label: "Add detail", description: "Spell out who, what, when and how each point is verified." },
  fix_grammar: { label: "Fix grammar", description: "Spelling, grammar and punctuation only." },
  make_technical: { label: "Make technical", description: "Add the engineering view: interfaces, data, limits, failure cases." },
  simplify: { label: "Simplify", description: "Plain language a non-specialist can follow." },
  add_user_focus: { label: "Add user focus", description: "Tie each point to the user it serves and the outcome they get." },
  add_metrics: { label: "Add metrics", description: "Measurable success criteria with baselines, targets and timeframes." },
};

export const STORY_SOURCES = ["prd", "feature", "requirements"] as const;
export type StorySource = (typeof STORY_SOURCES)[number];

export const TEAM_SIZES = ["small", "medium", "large"] as const;
export type TeamSize = (typeof TEAM_SIZES)[number];

/** Methodologies the roadmap knows by name; any other short name is accepted and treated as iterative. */
export const METHODOLOGIES = ["agile", "scrum", "kanban", "waterfall", "shape_up", "lean"] as const;

export const LAUNCH_CONTENT_TYPES = ["blog_post", "press_release", "social_media", "email_announcement", "demo_script", "changelog"] as const;
export type LaunchContentType = (typeof LAUNCH_CONTENT_TYPES)[number];

export const DIAGRAM_TYPES = ["user_flow", "system_architecture", "screen_layout", "data_flow", "sequence", "journey_map"] as const;
export type DiagramType = (typeof DIAGRAM_TYPES)[number];

export const MEMORY_TYPES = ["preference", "decision", "project_context", "feedback"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];
export const MEMORY_CATEGORIES = ["technical", "business", "process", "style", "team"] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

// ---------------------------------------------------------------- scores

/** The six quality dimensions shared by the coach review and the project score. */
export const DIMENSIONS = ["clarity", "completeness", "userFocus", "technicalFeasibility", "metrics", "riskAssessment"] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const DIMENSION_LABELS: Record<Dimension, string> = {
  clarity: "Clarity",
  completeness: "Completeness",
  userFocus: "User focus",
  technicalFeasibility: "Technical feasibility",
  metrics: "Metrics",
  riskAssessment: "Risk assessment",
};

const score = z.number().min(0).max(100);
const dimensionScores = z.object({
  clarity: score,
  completeness: score,
  userFocus: score,
  technicalFeasibility: score,
  metrics: score,
  riskAssessment: score,
});
const level = z.enum(["high", "medium", "low"]);

/** Coach review (`done.review`). Scores are 0–100. */
export const reviewSchema = z.object({
  overallScore: score,
  executiveSummary: z.string().min(1),
  dimensions: dimensionScores,
  strengths: z.array(z.string().min(1)),
  improvements: z.array(z.object({ priority: level, suggestion: z.string().min(1) })),
  missingSections: z.array(z.string()),
  recommendations: z.array(z.object({ effort: z.enum(["low", "medium", "high"]), impact: z.enum(["low", "medium", "high"]), description: z.string().min(1) })),
});
export type Review = z.infer<typeof reviewSchema>;

/** Project score: six-part breakdown, one line of feedback per part, overall 0–100. */
export const scoreSchema = z.object({
  overallScore: score,
  breakdown: dimensionScores,
  feedback: z.object({
    clarity: z.string(),
    completeness: z.string(),
    userFocus: z.string(),
    technicalFeasibility: z.string(),
    metrics: z.string(),
    riskAssessment: z.string(),
  }),
});
export type ScoreResult = z.infer<typeof scoreSchema>;

// ---------------------------------------------------------------- suggestions

export const SUGGESTION_TYPES = ["completeness", "clarity", "metrics", "user_focus", "technical", "risk", "structure"] as const;
export const suggestionDraftSchema = z.object({
  section: z.string().min(1),
  type: z.enum(SUGGESTION_TYPES),
  title: z.string().min(1).max(200),
  description: z.string().min(1),
  severity: level,
});
export type SuggestionDraft = z.infer<typeof suggestionDraftSchema>;
/** What a model must return: 3 to 5 suggestions (ids are added by the server). */
export const suggestionsSchema = z.object({ suggestions: z.array(suggestionDraftSchema).min(3).max(5) });

// ---------------------------------------------------------------- roadmap

export const roadmapSchema = z.object({
  title: z.string().min(1),
  summary: z.string(),
  methodology: z.string().min(1),
  teamSize: z.enum(TEAM_SIZES),
  /** Length of the whole plan. */
  totalWeeks: z.number().int().min(1),
  phases: z
    .array(
      z.object({
        name: z.string().min(1),
        goal: z.string(),
        /** 1-based week the phase starts in. */
        startWeek: z.number().int().min(1),
        durationWeeks: z.number().int().min(1),
        milestones: z.array(z.object({ name: z.string().min(1), week: z.number().int().min(1), successCriteria: z.string() })),
        tasks: z.array(z.object({ title: z.string().min(1), estimateDays: z.number().positive(), role: z.string() })),
      }),
    )
    .min(1),
  risks: z.array(z.string()),
});
export type Roadmap = z.infer<typeof roadmapSchema>;

// ---------------------------------------------------------------- memory

export const memoryCandidateSchema = z.object({
  memoryType: z.enum(MEMORY_TYPES),
  category: z.enum(MEMORY_CATEGORIES),
  content: z.string().min(1).max(2000),
  summary: z.string().max(200),
  importance: z.number().int().min(1).max(10),
});
export type MemoryCandidate = z.infer<typeof memoryCandidateSchema>;
export const extractionSchema = z.object({ memories: z.array(memoryCandidateSchema).max(20) });
