import { z } from "zod/v4";
import { checkPrdSchema, createVersionSchema, getVersionQuery, patchPrdSchema, putPrdSchema } from "~/domain/prd/prd.schema";
import { contract } from "../contract";

const tag = "PRD documents";
const params = z.object({ projectId: z.string() });

export const prdShape = z.object({
  projectId: z.string(),
  content: z.string(),
  style: z.string().nullable(),
  versionId: z.string().nullable(),
  versionNumber: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});

const versionShape = z.object({
  id: z.string(),
  number: z.number(),
  label: z.string().nullable(),
  style: z.string().nullable(),
  source: z.string(),
  size: z.number(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});

const conflictNote =
  " Send `If-Match: <ETag>` (the current version id) or `baseVersionId`: if the PRD has moved on, 409 CONFLICT returns `current` instead of overwriting. With `merge: true` as well, your edits and those saved since that version are merged three-way (line by line): the merged PRD is saved (`merged: true` in the answer) unless both changed the same lines, which is 409 CONFLICT with `conflicts`.";

export const getPrd = contract({
  method: "GET",
  path: "/api/projects/{projectId}/prd",
  tag,
  summary: "Get the PRD",
  description: "404 when the project has no PRD yet. The ETag is the current version id. Also readable with `x-share-token`.",
  auth: "share",
  params,
  response: z.object({ prd: prdShape }),
  etag: {},
  errors: ["NOT_FOUND"],
});

export const putPrd = contract({
  method: "POST",
  path: "/api/projects/{projectId}/prd",
  tag,
  summary: "Create or replace the PRD",
  description: `201 when created, 200 when replaced. A change of content creates a version.${conflictNote}`,
  auth: "user",
  params,
  body: putPrdSchema,
  successStatus: 201,
  alsoSuccess: [200],
  response: z.object({
    prd: prdShape,
    merged: z.boolean().optional().describe("true when the save was merged with versions saved since `baseVersionId` (`merge: true`)"),
  }),
  etag: { ifMatch: true },
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const patchPrd = contract({
  method: "PATCH",
  path: "/api/projects/{projectId}/prd",
  tag,
  summary: "Update the PRD's content and/or style",
  description: `404 when there is no PRD yet. A change of content creates a version.${conflictNote}`,
  auth: "user",
  params,
  body: patchPrdSchema,
  response: z.object({
    prd: prdShape,
    merged: z.boolean().optional().describe("true when the save was merged with versions saved since `baseVersionId` (`merge: true`)"),
  }),
  etag: { ifMatch: true },
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const listVersions = contract({
  method: "GET",
  path: "/api/projects/{projectId}/prd/versions",
  tag,
  summary: "List PRD versions, newest first (without content)",
  auth: "user",
  params,
  response: z.object({ versions: z.array(versionShape) }),
  errors: ["NOT_FOUND"],
});

export const createVersion = contract({
  method: "POST",
  path: "/api/projects/{projectId}/prd/versions",
  tag,
  summary: "Save a named snapshot of the current PRD",
  description: "Body `{label?}`. Saves also create versions on their own; this one marks a milestone.",
  auth: "user",
  params,
  body: createVersionSchema,
  successStatus: 201,
  response: z.object({ version: versionShape.extend({ content: z.string() }) }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const getVersion = contract({
  method: "GET",
  path: "/api/projects/{projectId}/prd/versions/{versionId}",
  tag,
  summary: "Get a version; `?compare=<versionId|current>` adds a line diff from that one to this",
  description:
    "`compare.lines` lists `{type: added|removed|unchanged, text}` with long unchanged stretches folded into `{type: skipped, count}`; `added` and `removed` count lines.",
  auth: "user",
  params: z.object({ projectId: z.string(), versionId: z.string() }),
  query: getVersionQuery,
  response: z.object({
    version: versionShape.extend({ content: z.string() }),
    compare: z
      .object({
        from: z.object({ id: z.string(), number: z.number().nullable() }),
        to: z.object({ id: z.string(), number: z.number() }),
        added: z.number(),
        removed: z.number(),
        lines: z.array(z.object({ type: z.string(), text: z.string().optional(), count: z.number().optional() })),
      })
      .optional(),
  }),
  errors: ["NOT_FOUND"],
});

const checkShape = z.object({
  check: z.object({
    issues: z.array(
      z.object({
        id: z.string(),
        rule: z.enum(["missing_section", "empty_section", "goal_without_number", "vague_word", "story_without_acceptance", "open_todo", "placeholder"]),
        severity: z.enum(["high", "medium", "low"]),
        section: z.string().nullable(),
        line: z.number().nullable(),
        message: z.string(),
        excerpt: z.string().nullable(),
      }),
    ),
    counts: z.object({ high: z.number(), medium: z.number(), low: z.number() }).describe("All issues found, by severity, also those beyond the cap."),
    totalIssues: z.number().describe("All issues found; more than `issues.length` when `truncated`."),
    truncated: z.boolean().describe("`issues` holds only the first 500 (most severe first, then by line)."),
    partial: z.boolean().describe("The check ran out of time (hostile input): lines after `checkedLines` were not checked."),
    checkedLines: z.number(),
    sections: z.object({ expected: z.array(z.string()), present: z.array(z.string()), missing: z.array(z.string()) }),
    stats: z.record(z.string(), z.number()),
  }),
  template: z.object({ name: z.string() }).nullable(),
  versionId: z.string().nullable(),
});
const checkDescription =
  "Rule-based and instant (no AI involved): template sections that are missing or empty, goals without a number, vague words, user stories without acceptance criteria, open TODO/TBD markers. Each issue names its section and 1-based line. At most 500 issues are returned, most severe first (`truncated`, `totalIssues`).";

export const checkPrd = contract({
  method: "GET",
  path: "/api/projects/{projectId}/prd/check",
  tag,
  summary: "Check the saved PRD against the template and writing rules",
  description: `${checkDescription} A project without a PRD is checked as an empty document.`,
  auth: "user",
  params,
  response: checkShape,
  errors: ["NOT_FOUND"],
});

export const checkDraft = contract({
  method: "POST",
  path: "/api/projects/{projectId}/prd/check",
  tag,
  summary: "Check unsaved PRD text",
  description: `${checkDescription} Body \`{content}\`; nothing is saved.`,
  auth: "user",
  params,
  body: checkPrdSchema,
  response: checkShape,
  errors: ["NOT_FOUND"],
});
